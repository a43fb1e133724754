import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@app/domain/chat';
import { unreadIdsOf } from './unread';

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
  it('lists the unread staff ids of one chat, oldest first', () => {
    expect(
      unreadIdsOf(
        [msg(4, 3), msg(2, 3), msg(3, 6)].sort((a, b) => a.id - b.id),
        'writer',
      ),
    ).toEqual([2, 4]);
  });
});
