import { describe, expect, it } from 'vitest';
import { SOCKET_EVENT, type ChatMessage } from '@app/domain';
import { createMemoryBus, type WakeUp } from './chat.bus';
import { createHub, type ChatSocket, type HubReads } from './chat.hub';
import type { CustomerUnread } from './chat.model';

// ADR 0066: the hub sends the customer the counts a wake-up carries, without reading them, and never
// counts older than some it already sent (a wake-up from another instance can arrive after a newer one).
const CUSTOMER = 7;
const ORDER = 70;

const setUp = (stored: CustomerUnread) => {
  const bus = createMemoryBus();
  const frames: { event: number; data: Record<string, unknown> }[] = [];
  const socket: ChatSocket = {
    send: (data) => frames.push(JSON.parse(data) as (typeof frames)[number]),
    close: () => undefined,
    ping: () => undefined,
    terminate: () => undefined,
    bufferedAmount: 0,
    readyState: 1,
  };
  let countReads = 0;
  const reads: HubReads = {
    message: async (id) => ({ id, orderId: ORDER }) as unknown as ChatMessage,
    customerUnread: async () => {
      countReads += 1;
      return stored;
    },
    staffUnread: async () => ({ total: 0, writer: 0, support: 0 }),
    ordersOfWriterFor: async () => [],
  };
  const silent = () => undefined;
  const hub = createHub({ bus, reads, log: { info: silent, warn: silent, error: silent } });
  hub.add({ socket, userId: CUSTOMER, kind: 'customer', expiresAtMs: Number.MAX_SAFE_INTEGER, alive: true });
  const staffMessage = (messageId: number, unread?: CustomerUnread): WakeUp => ({
    t: 'message',
    orderId: ORDER,
    customerId: CUSTOMER,
    writerId: null,
    chat: 'support',
    messageId,
    fromCustomer: false,
    ...(unread ? { unread } : {}),
  });
  const customerRead = (unread?: CustomerUnread): WakeUp => ({
    t: 'read',
    orderId: ORDER,
    customerId: CUSTOMER,
    writerId: null,
    chat: 'support',
    by: 'customer',
    messageId: 1,
    sequence: 1,
    ...(unread ? { unread } : {}),
  });
  const unreadFrames = () => frames.filter((f) => f.event === SOCKET_EVENT.unread).map((f) => f.data);
  // The memory bus delivers in a microtask; then every wake-up's chain has run.
  const settle = async () => {
    await new Promise((resolve) => setImmediate(resolve));
    await hub.idle();
  };
  return { bus, settle, frames, unreadFrames, staffMessage, customerRead, countReads: () => countReads };
};

describe('the hub and the customer unread counts', () => {
  it('sends the counts a wake-up carries after the message, reading nothing', async () => {
    const s = setUp({ writer: 9, support: 9, version: 1 });
    s.bus.publish(s.staffMessage(11, { writer: 0, support: 2, version: 5 }));
    await s.settle();
    expect(s.frames.map((f) => f.event)).toEqual([SOCKET_EVENT.newMessage, SOCKET_EVENT.unread]);
    expect(s.unreadFrames()).toEqual([{ orderId: ORDER, total: 2, writer: 0, support: 2 }]);
    expect(s.countReads()).toBe(0);
  });

  it('does not send counts older than some already sent, and reads them when a wake-up has none', async () => {
    const s = setUp({ writer: 0, support: 4, version: 7 });
    s.bus.publish(s.staffMessage(11, { writer: 0, support: 3, version: 5 }));
    // A read that happened before the message, whose wake-up came late through another instance.
    s.bus.publish(s.customerRead({ writer: 0, support: 1, version: 4 }));
    // The same state again (two messages of one batch carry the counts after both): sent once.
    s.bus.publish(s.staffMessage(12, { writer: 0, support: 3, version: 5 }));
    // A wake-up without counts (from an older instance): read, newer, sent.
    s.bus.publish(s.staffMessage(13));
    await s.settle();
    expect(s.unreadFrames()).toEqual([
      { orderId: ORDER, total: 3, writer: 0, support: 3 },
      { orderId: ORDER, total: 4, writer: 0, support: 4 },
    ]);
    expect(s.frames.filter((f) => f.event === SOCKET_EVENT.newMessage)).toHaveLength(3);
    expect(s.countReads()).toBe(1);
  });
});

describe('ADR 0069: the hub and ended sessions', () => {
  const socketOf = (closes: number[]): ChatSocket => ({
    send: () => undefined,
    close: (code) => closes.push(code ?? 0),
    ping: () => undefined,
    terminate: () => undefined,
    bufferedAmount: 0,
    readyState: 1,
  });
  const reads: HubReads = {
    message: async () => null,
    customerUnread: async () => ({ writer: 0, support: 0, version: 0 }),
    staffUnread: async () => ({ total: 0, writer: 0, support: 0 }),
    ordersOfWriterFor: async () => [],
  };
  const silent = () => undefined;
  const conn = (closes: number[], sid: string, userId = CUSTOMER) => ({
    socket: socketOf(closes),
    userId,
    kind: 'customer' as const,
    expiresAtMs: Number.MAX_SAFE_INTEGER,
    sid,
    alive: true,
  });

  it('closes the sockets of the sessions named, of every session but one, and of no other account', async () => {
    const bus = createMemoryBus();
    const hub = createHub({ bus, reads, log: { info: silent, warn: silent, error: silent } });
    const a: number[] = [];
    const b: number[] = [];
    const c: number[] = [];
    const other: number[] = [];
    for (const [closes, sid, userId] of [
      [a, 'A', CUSTOMER],
      [b, 'B', CUSTOMER],
      [c, 'C', CUSTOMER],
      [other, 'A', CUSTOMER + 1],
    ] as const)
      hub.add(conn(closes, sid, userId));
    bus.publish({ t: 'sessions-ended', userId: CUSTOMER, sids: ['A'] });
    await new Promise((resolve) => setImmediate(resolve));
    expect([a, b, c, other]).toEqual([[4401], [], [], []]);
    expect(hub.openSockets()).toBe(3);
    bus.publish({ t: 'sessions-ended', userId: CUSTOMER, exceptSid: 'B' });
    await new Promise((resolve) => setImmediate(resolve));
    expect([a, b, c, other]).toEqual([[4401], [], [4401], []]);
  });

  it('closes at once a socket of a session that ended while its upgrade was answered', async () => {
    const bus = createMemoryBus();
    const hub = createHub({ bus, reads, log: { info: silent, warn: silent, error: silent } });
    bus.publish({ t: 'sessions-ended', userId: CUSTOMER, sids: ['late'] });
    await new Promise((resolve) => setImmediate(resolve));
    const closes: number[] = [];
    const kept: number[] = [];
    expect(hub.add(conn(closes, 'late'))).toBe(true);
    hub.add(conn(kept, 'live'));
    expect(closes).toEqual([4401]);
    expect(kept).toEqual([]);
    expect(hub.openSockets()).toBe(1);
  });

  it('the sweep closes the sockets whose session is no longer live', async () => {
    const bus = createMemoryBus();
    const hub = createHub({
      bus,
      reads,
      log: { info: silent, warn: silent, error: silent },
      isLive: async ({ sid }) => sid !== 'revoked',
    });
    const closes: number[] = [];
    const kept: number[] = [];
    hub.add(conn(closes, 'revoked'));
    hub.add(conn(kept, 'live'));
    hub.sweep();
    await new Promise((resolve) => setImmediate(resolve));
    expect(closes).toEqual([4401]);
    expect(kept).toEqual([]);
  });
});
