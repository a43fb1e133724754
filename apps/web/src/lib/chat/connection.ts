import { SOCKET_CLOSE, SOCKET_EVENT, SOCKET_PING_INTERVAL_MS, SOCKET_PONG_TIMEOUT_MS } from '@app/domain/chat/rules';
import { backoffDelay } from '@/lib/backoff';

/**
 * One WebSocket per tab to the chat server (SPEC §2 "startup socket", §4 "Socket events", ADR 0049):
 * - ping (2) every 300 s; with no pong (3) within 10 s the socket is dropped and opened again (SPEC §9);
 * - reconnects with exponential backoff and full jitter, and at once when the browser comes back online
 *   or the tab becomes visible (then also checks a socket that looks open with a ping: a laptop that
 *   slept keeps a dead socket that says it is open);
 * - a close with 4401 (bad or expired token, CONTRACT "Chat") renews the token first.
 * Every open calls `onOpen`: the caller catches up (`?after=`) then, since the server sends a socket all
 * events of the customer's orders from its first moment on, nothing falls between the two.
 */
export { SOCKET_EVENT };
export const CLOSE_UNAUTHORIZED = SOCKET_CLOSE.unauthorized;

export interface Frame {
  event: number;
  data?: unknown;
}

export type ConnectionStatus = 'connecting' | 'open' | 'closed';

export interface ConnectionOptions {
  /** the socket URL with a current access token, or null when signed out */
  url: () => string | null;
  onFrame: (frame: Frame) => void;
  onOpen: () => void;
  onStatus?: (status: ConnectionStatus) => void;
  /** renews the access token after a 4401; resolves false when the session is over */
  renewToken: () => Promise<boolean>;
  WebSocketImpl?: typeof WebSocket;
  random?: () => number;
  /** the window whose online/offline events wake or drop the socket (null in unit tests) */
  target?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
  /** the document whose visibilitychange wakes the socket (null in unit tests) */
  visibilityTarget?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
  isVisible?: () => boolean;
}

export const createConnection = (options: ConnectionOptions) => {
  // The web app's one socket (ADR 0076: lint allows opening one only in this file); unit tests pass a fake.
  const Impl = options.WebSocketImpl ?? WebSocket;
  const openSocket = (url: string): WebSocket => (options.WebSocketImpl ? new options.WebSocketImpl(url) : new WebSocket(url));
  const random = options.random ?? Math.random;
  const target = options.target === undefined ? (typeof window === 'undefined' ? null : window) : options.target;
  const visibilityTarget =
    options.visibilityTarget === undefined ? (typeof document === 'undefined' ? null : document) : options.visibilityTarget;
  const isVisible = options.isVisible ?? (() => typeof document === 'undefined' || document.visibilityState === 'visible');

  let socket: WebSocket | null = null;
  let status: ConnectionStatus = 'closed';
  let attempt = 0;
  let stopped = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let pingTimer: ReturnType<typeof setInterval> | null = null;
  let pongTimer: ReturnType<typeof setTimeout> | null = null;
  let renewing = false;

  const setStatus = (next: ConnectionStatus) => {
    if (status === next) return;
    status = next;
    options.onStatus?.(next);
  };

  const clearTimers = () => {
    if (pingTimer !== null) clearInterval(pingTimer);
    if (pongTimer !== null) clearTimeout(pongTimer);
    pingTimer = null;
    pongTimer = null;
  };

  const drop = () => {
    const current = socket;
    socket = null;
    clearTimers();
    if (current) {
      current.onopen = null;
      current.onmessage = null;
      current.onclose = null;
      current.onerror = null;
      try {
        current.close();
      } catch {
        // already closing
      }
    }
    setStatus('closed');
  };

  const scheduleReconnect = (delay = backoffDelay(attempt, random())) => {
    if (stopped || reconnectTimer !== null) return;
    attempt += 1;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      open();
    }, delay);
  };

  const ping = () => {
    if (!socket || socket.readyState !== Impl.OPEN) return;
    socket.send(JSON.stringify({ event: SOCKET_EVENT.ping }));
    if (pongTimer === null) {
      pongTimer = setTimeout(() => {
        pongTimer = null;
        // No pong in 10 s: the socket is dead even if it says otherwise (SPEC §4).
        drop();
        scheduleReconnect(0);
      }, SOCKET_PONG_TIMEOUT_MS);
    }
  };

  function open() {
    if (stopped || socket) return;
    const url = options.url();
    if (url === null) return;
    setStatus('connecting');
    let ws: WebSocket;
    try {
      ws = openSocket(url);
    } catch {
      scheduleReconnect();
      return;
    }
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      setStatus('open');
      pingTimer = setInterval(ping, SOCKET_PING_INTERVAL_MS);
      options.onOpen();
    };
    ws.onmessage = (event: MessageEvent) => {
      let frame: unknown;
      try {
        frame = JSON.parse(String(event.data));
      } catch {
        return;
      }
      if (typeof frame !== 'object' || frame === null || typeof (frame as Frame).event !== 'number') return;
      if ((frame as Frame).event === SOCKET_EVENT.pong) {
        if (pongTimer !== null) clearTimeout(pongTimer);
        pongTimer = null;
        return;
      }
      options.onFrame(frame as Frame);
    };
    ws.onclose = (event: CloseEvent) => {
      if (socket !== ws) return;
      socket = null;
      clearTimers();
      setStatus('closed');
      if (stopped) return;
      if (event.code === CLOSE_UNAUTHORIZED && !renewing) {
        renewing = true;
        void options
          .renewToken()
          .then((ok) => {
            renewing = false;
            if (ok) scheduleReconnect(0);
          })
          .catch(() => {
            renewing = false;
            scheduleReconnect();
          });
        return;
      }
      scheduleReconnect();
    };
    ws.onerror = () => {
      // onclose follows and reconnects.
    };
  }

  /** Back online or visible again: connect now instead of waiting out the backoff; check an open one. */
  const wake = () => {
    if (stopped) return;
    if (socket && socket.readyState === Impl.OPEN) {
      ping();
      return;
    }
    if (socket) return;
    if (reconnectTimer !== null) clearTimeout(reconnectTimer);
    reconnectTimer = null;
    attempt = 0;
    open();
  };
  const onVisibility = () => {
    if (isVisible()) wake();
  };
  const onOffline = () => {
    // The browser says the network is gone: the socket is, too; `online` brings it back at once.
    drop();
  };

  return {
    start() {
      stopped = false;
      target?.addEventListener('online', wake);
      target?.addEventListener('offline', onOffline);
      visibilityTarget?.addEventListener('visibilitychange', onVisibility);
      open();
    },
    stop() {
      stopped = true;
      if (reconnectTimer !== null) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      target?.removeEventListener('online', wake);
      target?.removeEventListener('offline', onOffline);
      visibilityTarget?.removeEventListener('visibilitychange', onVisibility);
      drop();
    },
    /** Sends a frame when the socket is open (typing is worth nothing later, so nothing is queued). */
    send(frame: Frame): boolean {
      if (!socket || socket.readyState !== Impl.OPEN) return false;
      socket.send(JSON.stringify(frame));
      return true;
    },
    wake,
    status: () => status,
  };
};

export type Connection = ReturnType<typeof createConnection>;
