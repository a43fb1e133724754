import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@app/domain/chat';
import { markRead, markReadUpTo, mergeMessages, mergeWindow, newestId, oldestId } from './merge';

const msg = (id: number, patch: { direction?: 1 | 2 | 3 | 6; state?: 1 | 2 } = {}): ChatMessage => ({
  id,
  orderId: 1,
  sequence: id,
  dateCreated: new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString(),
  direction: { id: patch.direction ?? 6 },
  state: { id: patch.state ?? 1 },
  body: `m${id}`,
  sticker: null,
  emoji: null,
  files: [],
  clientId: null,
});

describe('merge by id (ADR 0049): no gap, no duplicate, no reorder', () => {
  it('sorts by id and keeps each id once', () => {
    const merged = mergeMessages([msg(1), msg(3)], [msg(2), msg(3), msg(5)]);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3, 5]);
  });

  it('never turns a read message back to unread when an older copy arrives late', () => {
    const merged = mergeMessages([msg(4, { state: 2 })], [msg(4, { state: 1 })]);
    expect(merged[0]!.state.id).toBe(2);
  });

  it('gives the same list whatever the order and repetition of arrivals (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 80 }), fc.integer({ min: 1, max: 5 }), (ids, chunks) => {
        const all = ids.map((id) => msg(id));
        // Deliver in random slices (live frames, catch-up pages, older pages), each possibly repeated.
        let held: ChatMessage[] = [];
        const size = Math.max(1, Math.ceil(all.length / chunks));
        for (let i = 0; i < all.length; i += size) {
          const slice = all.slice(i, i + size);
          held = mergeMessages(held, slice);
          held = mergeMessages(held, slice.reverse());
        }
        const expected = [...new Set(ids)].sort((a, b) => a - b);
        expect(held.map((m) => m.id)).toEqual(expected);
      }),
    );
  });

  it('is idempotent and commutative on the set of ids (property)', () => {
    const ids = fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { maxLength: 40 });
    fc.assert(
      fc.property(ids, ids, (a, b) => {
        const left = mergeMessages(
          a.map((id) => msg(id)),
          b.map((id) => msg(id)),
        );
        const right = mergeMessages(
          b.map((id) => msg(id)),
          a.map((id) => msg(id)),
        );
        expect(left.map((m) => m.id)).toEqual(right.map((m) => m.id));
        expect(mergeMessages(left, left).map((m) => m.id)).toEqual(left.map((m) => m.id));
      }),
    );
  });

  it('reads the cursors: newest for ?after=, oldest for ?before=', () => {
    expect(newestId([])).toBeNull();
    expect(oldestId([])).toBeNull();
    expect(newestId([msg(2), msg(9)])).toBe(9);
    expect(oldestId([msg(2), msg(9)])).toBe(2);
  });

  it('keeps hasOlder false once the start of the history was reached', () => {
    const first = mergeWindow(undefined, [msg(5)], false);
    expect(first.hasOlder).toBe(false);
    expect(mergeWindow(first, [msg(6)]).hasOlder).toBe(false);
    expect(mergeWindow(undefined, [msg(5)]).hasOlder).toBe(true);
  });
});

describe('read state', () => {
  it('marks the answered ids read and leaves the others', () => {
    const marked = markRead([msg(1), msg(2)], new Set([2]));
    expect(marked.map((m) => m.state.id)).toEqual([1, 2]);
  });

  it("event 6 by staff turns the customer's own messages of that chat read up to the id", () => {
    const list = [
      msg(1, { direction: 1 }),
      msg(2, { direction: 2 }),
      msg(3, { direction: 1 }),
      msg(4, { direction: 3 }),
      msg(5, { direction: 1 }),
    ];
    const after = markReadUpTo(list, 'writer', 4, false);
    expect(after.map((m) => m.state.id)).toEqual([2, 1, 2, 1, 1]);
  });

  it('event 6 by the customer (another tab) turns staff messages of that chat read', () => {
    const list = [msg(1, { direction: 6 }), msg(2, { direction: 3 }), msg(3, { direction: 6 })];
    expect(markReadUpTo(list, 'support', 3, true).map((m) => m.state.id)).toEqual([2, 1, 2]);
  });
});
