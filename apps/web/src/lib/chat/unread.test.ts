import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@app/domain/chat';
import { chatOf } from './chats';
import { mergeMessages } from './merge';
import { advancePointer, countUnread, unreadFromPointers, unreadIdsOf, type ReadPointers } from './unread';

const msg = (id: number, direction: number, state = 1): ChatMessage => ({
  id,
  orderId: 1,
  sequence: id,
  dateCreated: '2026-01-01T00:00:00.000Z',
  direction: { id: direction as 1 | 2 | 3 | 6 },
  state: { id: state as 1 | 2 },
  body: '',
  sticker: null,
  emoji: null,
  files: [],
  clientId: null,
});

describe('unread counts', () => {
  it("counts staff messages in state 1 per chat, never the customer's own", () => {
    const counts = countUnread([msg(1, 3), msg(2, 6), msg(3, 6, 2), msg(4, 1), msg(5, 2)]);
    expect(counts).toEqual({ total: 2, writer: 1, support: 1 });
  });

  it('lists the unread staff ids of one chat, oldest first', () => {
    expect(
      unreadIdsOf(
        [msg(4, 3), msg(2, 3), msg(3, 6)].sort((a, b) => a.id - b.id),
        'writer',
      ),
    ).toEqual([2, 4]);
  });

  it('moves a read pointer only forward', () => {
    const p: ReadPointers = { writer: 5, support: 0 };
    expect(advancePointer(p, 'writer', 3)).toBe(p);
    expect(advancePointer(p, 'writer', 9)).toEqual({ writer: 9, support: 0 });
  });

  it('agrees with a recount from the messages under any interleaving of sends, reads, reconnects and two tabs (property)', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('staff' as const), direction: fc.constantFrom(3, 6) }),
      fc.record({ kind: fc.constant('own' as const), direction: fc.constantFrom(1, 2) }),
      fc.record({
        kind: fc.constant('read' as const),
        tab: fc.constantFrom(0, 1),
        chat: fc.constantFrom('writer' as const, 'support' as const),
      }),
      fc.record({ kind: fc.constant('reconnect' as const), tab: fc.constantFrom(0, 1) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 100 }), (steps) => {
        const server: ChatMessage[] = [];
        let pointers: ReadPointers = { writer: 0, support: 0 };
        // Two tabs, each with what it has received so far (a tab away misses frames until it reconnects).
        const tabs: ChatMessage[][] = [[], []];
        const online = [true, true];
        let id = 0;
        for (const s of steps) {
          if (s.kind === 'staff' || s.kind === 'own') {
            id += 1;
            const m = msg(id, s.direction);
            server.push(m);
            tabs.forEach((held, i) => {
              if (online[i]) tabs[i] = mergeMessages(held, [m]);
            });
          } else if (s.kind === 'read') {
            // The tab reads what it sees of that chat; the server moves the pointer forward only.
            const seen = tabs[s.tab]!.filter((m) => chatOf(m.direction.id) === s.chat).map((m) => m.id);
            if (seen.length > 0) pointers = advancePointer(pointers, s.chat, Math.max(...seen));
            online[s.tab] = !online[s.tab];
          } else {
            tabs[s.tab] = mergeMessages(tabs[s.tab]!, server);
            online[s.tab] = true;
          }
          const recount = server.filter((m) => (m.direction.id === 3 || m.direction.id === 6) && m.id > pointers[chatOf(m.direction.id)]);
          const counts = unreadFromPointers(server, pointers);
          expect(counts.total).toBe(recount.length);
          expect(counts.writer + counts.support).toBe(counts.total);
          expect(counts.total).toBeGreaterThanOrEqual(0);
        }
      }),
    );
  });
});
