import { SOCKET_CLOSE, SOCKET_EVENT, SOCKET_PING_INTERVAL_MS, SOCKET_PONG_TIMEOUT_MS } from '@app/domain/chat/rules';
import { apiFetch } from '@/lib/api-client';
import { tokenStorage } from '@/lib/storage';
import { backoffDelay } from '@/lib/backoff';

/** A frame as the server sends it (CONTRACT "Chat": `{ "event": n, "data": … }`); the chat hook checks `data`. */
export interface SocketFrame {
  event: number;
  data: unknown;
}

export type SocketState = 'connecting' | 'open' | 'closed';

type FrameListener = (frame: SocketFrame) => void;
type StateListener = (state: SocketState) => void;

/** Reconnects start half a second after a drop; the shared backoff (lib/backoff.ts, ADR 0049) doubles it up to 30 s, with jitter. */
const RECONNECT_BASE_MS = 500;

/**
 * The staff console's one socket (`{chat}/staff/orders/messages?accessToken=…`, ADR 0047): customer
 * messages, typing and read state of every order the account may see arrive here, and the console sends
 * its typing (13/14). It pings every 300 s and reconnects when no pong comes within 10 s (SPEC §4);
 * it reconnects with backoff and jitter after a drop, and at once when the browser is online again or
 * the tab becomes visible. A 4401 close (expired token) renews the token through the API first. Every
 * (re)open is reported, so the chats fetch what they missed (`?after=`).
 */
export class StaffSocket {
  private socket: WebSocket | null = null;
  private attempt = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private pongTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = true;
  private readonly frames = new Set<FrameListener>();
  private readonly states = new Set<StateListener>();
  state: SocketState = 'closed';

  constructor(private readonly url: string) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    window.addEventListener('online', this.reconnectNow);
    document.addEventListener('visibilitychange', this.onVisibility);
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    window.removeEventListener('online', this.reconnectNow);
    document.removeEventListener('visibilitychange', this.onVisibility);
    clearTimeout(this.retryTimer);
    this.clearPing();
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
    this.setState('closed');
  }

  onFrame(listener: FrameListener): () => void {
    this.frames.add(listener);
    return () => {
      this.frames.delete(listener);
    };
  }

  onState(listener: StateListener): () => void {
    this.states.add(listener);
    return () => {
      this.states.delete(listener);
    };
  }

  /** Sends a frame when open; a frame sent while closed is dropped (typing is only worth it live). */
  send(event: number, data?: unknown): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(data === undefined ? { event } : { event, data }));
    return true;
  }

  private setState(state: SocketState): void {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.states) listener(state);
  }

  private connect(): void {
    if (this.stopped) return;
    const token = tokenStorage.read().accessToken;
    if (token === null) {
      this.setState('closed');
      return;
    }
    this.setState('connecting');
    const socket = new WebSocket(`${this.url}?accessToken=${encodeURIComponent(token)}`);
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.attempt = 0;
      this.startPing();
      this.setState('open');
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket || typeof event.data !== 'string') return;
      let frame: SocketFrame;
      try {
        const parsed = JSON.parse(event.data) as { event?: unknown; data?: unknown };
        if (typeof parsed.event !== 'number') return;
        frame = { event: parsed.event, data: parsed.data };
      } catch {
        return;
      }
      if (frame.event === SOCKET_EVENT.pong) {
        clearTimeout(this.pongTimer);
        return;
      }
      for (const listener of this.frames) listener(frame);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.clearPing();
      this.setState('closed');
      if (this.stopped) return;
      if (event.code === SOCKET_CLOSE.unauthorized) {
        // The access token expired: any API call renews it (or ends the session), then connect again.
        void apiFetch('/api/staff/me')
          .catch(() => undefined)
          .finally(() => this.scheduleRetry());
        return;
      }
      this.scheduleRetry();
    };
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), backoffDelay(this.attempt, Math.random(), { baseMs: RECONNECT_BASE_MS }));
    this.attempt += 1;
  }

  private readonly reconnectNow = (): void => {
    if (this.stopped || this.socket !== null) return;
    clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.connect();
  };

  private readonly onVisibility = (): void => {
    if (document.visibilityState === 'visible') this.reconnectNow();
  };

  private startPing(): void {
    this.clearPing();
    this.pingTimer = setInterval(() => {
      if (!this.send(SOCKET_EVENT.ping)) return;
      clearTimeout(this.pongTimer);
      // No pong in time: the connection is dead even if the browser has not noticed; start over.
      this.pongTimer = setTimeout(() => this.socket?.close(4000), SOCKET_PONG_TIMEOUT_MS);
    }, SOCKET_PING_INTERVAL_MS);
  }

  private clearPing(): void {
    clearInterval(this.pingTimer);
    clearTimeout(this.pongTimer);
  }
}
