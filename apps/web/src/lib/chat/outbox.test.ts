import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deserialize,
  enqueue,
  entriesOf,
  isFinalRefusal,
  markFailed,
  markQueued,
  markSending,
  markSent,
  retry,
  revive,
  sendable,
  serialize,
  type OutboxEntry,
} from './outbox';

const add = (outbox: OutboxEntry[], clientId: string, orderId = 1, body = clientId): OutboxEntry[] =>
  enqueue(outbox, { clientId, orderId, chat: 'writer', payload: { kind: 'text', body }, createdAt: '2026-01-01T00:00:00.000Z' });

describe('the outbox (ADR 0049)', () => {
  it('sends one message per order at a time, in the order written', () => {
    let box = add(add(add([], 'a'), 'b'), 'c', 2);
    expect(sendable(box).map((e) => e.clientId)).toEqual(['a', 'c']);
    box = markSending(box, 'a');
    expect(sendable(box).map((e) => e.clientId)).toEqual(['c']);
    box = markSent(box, 'a');
    expect(sendable(box).map((e) => e.clientId)).toEqual(['b', 'c']);
  });

  it('keeps a message that could not reach the server queued in its place', () => {
    let box = add(add([], 'a'), 'b');
    box = markQueued(markSending(box, 'a'), 'a');
    expect(sendable(box).map((e) => e.clientId)).toEqual(['a']);
    expect(box[0]!.attempts).toBe(1);
  });

  it('lets the next message go when one is refused, and Retry puts the refused one back first', () => {
    let box = add(add([], 'a'), 'b');
    box = markFailed(markSending(box, 'a'), 'a', 'Message cannot be more than 1500 characters long.');
    expect(box[0]!.error).toBe('Message cannot be more than 1500 characters long.');
    expect(sendable(box).map((e) => e.clientId)).toEqual(['b']);
    box = retry(box, 'a');
    expect(sendable(box).map((e) => e.clientId)).toEqual(['a']);
    expect(box[0]!.payload).toEqual({ kind: 'text', body: 'a' });
  });

  it('does not queue the same client id twice', () => {
    expect(add(add([], 'a'), 'a')).toHaveLength(1);
  });

  it('survives a reload: what was on its way is queued again, files cannot come back', () => {
    let box = add(add([], 'a'), 'b');
    box = markSending(box, 'a');
    box = enqueue(box, {
      clientId: 'f',
      orderId: 1,
      chat: 'support',
      payload: { kind: 'text', body: '' },
      createdAt: 'x',
      files: [new File(['x'], 'x.txt')],
    });
    const back = revive(deserialize(serialize(box)));
    expect(back.map((e) => [e.clientId, e.status])).toEqual([
      ['a', 'queued'],
      ['b', 'queued'],
    ]);
  });

  it('drops stored entries it cannot read instead of trusting them', () => {
    expect(deserialize('not json')).toEqual([]);
    expect(deserialize('{"a":1}')).toEqual([]);
    expect(deserialize('[{"clientId":"a"}]')).toEqual([]);
    expect(deserialize(null)).toEqual([]);
  });

  it('treats 4xx as final except 408 and 429; 5xx and network failures are retried', () => {
    expect([400, 404, 413, 422].map(isFinalRefusal)).toEqual([true, true, true, true]);
    expect([0, 408, 429, 500, 503].map(isFinalRefusal)).toEqual([false, false, false, false, false]);
  });

  it('delivers every message exactly once and in order per order, whatever fails on the way (property)', () => {
    // Operations: write a message to an order, or let the network answer the head of the queue
    // (stored, unreachable, or stored but the answer lost: the retry with the same key gets the stored one).
    const op = fc.oneof(
      fc.record({ kind: fc.constant('write' as const), orderId: fc.integer({ min: 1, max: 3 }) }),
      fc.record({ kind: fc.constant('deliver' as const), outcome: fc.constantFrom('stored', 'unreachable', 'lost-answer') }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        let box: OutboxEntry[] = [];
        const server = new Map<string, { orderId: number; n: number }>();
        const stored: { orderId: number; clientId: string }[] = [];
        let n = 0;
        const written: Record<number, string[]> = {};
        const attempt = (outcome: string) => {
          const head = sendable(box)[0];
          if (!head) return;
          box = markSending(box, head.clientId);
          if (outcome !== 'unreachable' && !server.has(head.clientId)) {
            server.set(head.clientId, { orderId: head.orderId, n: stored.length });
            stored.push({ orderId: head.orderId, clientId: head.clientId });
          }
          box = outcome === 'stored' ? markSent(box, head.clientId) : markQueued(box, head.clientId);
        };
        for (const o of ops) {
          if (o.kind === 'write') {
            n += 1;
            const id = `c${n}`;
            (written[o.orderId] ??= []).push(id);
            box = add(box, id, o.orderId);
          } else attempt(o.outcome);
        }
        // Back online for good: everything drains.
        for (let i = 0; i < 1000 && box.length > 0; i += 1) attempt('stored');
        expect(box).toEqual([]);
        for (const [orderId, ids] of Object.entries(written)) {
          expect(stored.filter((s) => s.orderId === Number(orderId)).map((s) => s.clientId)).toEqual(ids);
        }
        expect(new Set(stored.map((s) => s.clientId)).size).toBe(stored.length);
      }),
    );
  });

  it("lists one order's entries in the order written", () => {
    const box = add(add(add([], 'a', 1), 'b', 2), 'c', 1);
    expect(entriesOf(box, 1).map((e) => e.clientId)).toEqual(['a', 'c']);
  });
});
