import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createConnection, SOCKET_EVENT, type Frame } from './connection';

/** A fake WebSocket for unit tests only (the e2e journeys use the real server). */
class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static instances: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.instances.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = FakeSocket.CLOSED;
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  receive(frame: Frame) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
  drop(code = 1006) {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code });
  }
}

const latest = () => FakeSocket.instances[FakeSocket.instances.length - 1]!;

const setup = (overrides: Partial<Parameters<typeof createConnection>[0]> = {}) => {
  const frames: Frame[] = [];
  const onOpen = vi.fn();
  const target = new EventTarget();
  const visibility = new EventTarget();
  let visible = true;
  const connection = createConnection({
    url: () => 'ws://test/chat/customers/orders/messages?accessToken=t',
    onFrame: (f) => frames.push(f),
    onOpen,
    renewToken: () => Promise.resolve(true),
    WebSocketImpl: FakeSocket as unknown as typeof WebSocket,
    random: () => 1,
    target,
    visibilityTarget: visibility,
    isVisible: () => visible,
    ...overrides,
  });
  return { connection, frames, onOpen, target, visibility, setVisible: (v: boolean) => (visible = v) };
};

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.instances = [];
});
afterEach(() => vi.useRealTimers());

describe('the chat socket (SPEC §4, ADR 0049)', () => {
  it('calls onOpen on every open, so the caller catches up after each reconnect', () => {
    const { connection, onOpen } = setup();
    connection.start();
    latest().open();
    latest().drop();
    vi.advanceTimersByTime(1_000);
    latest().open();
    expect(onOpen).toHaveBeenCalledTimes(2);
    connection.stop();
  });

  it('pings every 300 s and reconnects when no pong comes within 10 s', () => {
    const { connection } = setup();
    connection.start();
    const first = latest();
    first.open();
    vi.advanceTimersByTime(300_000);
    expect(first.sent).toEqual([JSON.stringify({ event: SOCKET_EVENT.ping })]);
    vi.advanceTimersByTime(9_999);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(first.readyState).toBe(FakeSocket.CLOSED);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    connection.stop();
  });

  it('keeps the socket when the pong comes, and does not pass pongs on', () => {
    const { connection, frames } = setup();
    connection.start();
    latest().open();
    vi.advanceTimersByTime(300_000);
    latest().receive({ event: SOCKET_EVENT.pong });
    vi.advanceTimersByTime(20_000);
    expect(FakeSocket.instances).toHaveLength(1);
    expect(frames).toEqual([]);
    connection.stop();
  });

  it('backs off exponentially between failed attempts', () => {
    const { connection } = setup();
    connection.start();
    latest().drop();
    vi.advanceTimersByTime(999);
    expect(FakeSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(2);
    latest().drop();
    vi.advanceTimersByTime(1_999);
    expect(FakeSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.instances).toHaveLength(3);
    connection.stop();
  });

  it('reconnects at once when the browser comes back online or the tab becomes visible', () => {
    const { connection, target, visibility, setVisible } = setup();
    connection.start();
    for (let i = 0; i < 5; i += 1) {
      latest().drop();
      vi.advanceTimersByTime(60_000);
    }
    const before = FakeSocket.instances.length;
    latest().drop();
    target.dispatchEvent(new Event('online'));
    expect(FakeSocket.instances).toHaveLength(before + 1);
    latest().drop();
    setVisible(false);
    visibility.dispatchEvent(new Event('visibilitychange'));
    expect(FakeSocket.instances).toHaveLength(before + 1);
    setVisible(true);
    visibility.dispatchEvent(new Event('visibilitychange'));
    expect(FakeSocket.instances).toHaveLength(before + 2);
    connection.stop();
  });

  it('renews the token after a 4401 close, then connects again', async () => {
    const renewToken = vi.fn(() => Promise.resolve(true));
    const { connection } = setup({ renewToken });
    connection.start();
    latest().drop(4401);
    expect(renewToken).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(FakeSocket.instances).toHaveLength(2);
    connection.stop();
  });

  it('stays closed after a 4401 when the session is over', async () => {
    const { connection } = setup({ renewToken: () => Promise.resolve(false) });
    connection.start();
    latest().drop(4401);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSocket.instances).toHaveLength(1);
    connection.stop();
  });

  it('passes frames on and ignores what is not a frame', () => {
    const { connection, frames } = setup();
    connection.start();
    latest().open();
    latest().onmessage?.({ data: 'garbage' });
    latest().receive({ event: SOCKET_EVENT.unread, data: { orderId: 1, total: 0, writer: 0, support: 0 } });
    expect(frames).toEqual([{ event: 5, data: { orderId: 1, total: 0, writer: 0, support: 0 } }]);
    connection.stop();
  });

  it('does not reconnect after stop', () => {
    const { connection } = setup();
    connection.start();
    latest().open();
    connection.stop();
    vi.advanceTimersByTime(120_000);
    expect(FakeSocket.instances).toHaveLength(1);
  });
});
