import { MESSAGE_STATE } from '@app/domain/chat/rules';
import type { ChatMessage } from '@app/domain/chat';
import { chatOf, isOwn, type ChatName } from './chats';

/** What the cache holds for one order: both chats in one list, oldest first (CONTRACT "Chat"). */
export interface MessageWindow {
  messages: ChatMessage[];
  /** false once a `?before=` page came back shorter than asked: nothing older exists */
  hasOlder: boolean;
}

const READ = { id: MESSAGE_STATE.read };

/**
 * Merges messages by id (ADR 0049): the result is sorted by sequence, holds each id once, and for an id seen
 * twice keeps the later copy (a read receipt moves state 1 to 2; a copy never goes back from read to
 * unread). Live frames, catch-up pages and older pages all go through here, in any order and any number
 * of times: no gap is made, no duplicate kept, nothing reordered.
 */
export const mergeMessages = (existing: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] => {
  const byId = new Map<number, ChatMessage>();
  for (const message of existing) byId.set(message.id, message);
  for (const message of incoming) {
    const known = byId.get(message.id);
    byId.set(message.id, known && known.state.id === MESSAGE_STATE.read ? { ...known, ...message, state: READ } : message);
  }
  return [...byId.values()].sort((a, b) => a.sequence - b.sequence);
};

/** The newest id held, the `?after=` of the catch-up; null before the first page. */
export const newestId = (messages: readonly ChatMessage[]): number | null =>
  messages.length === 0 ? null : messages[messages.length - 1]!.id;

/** The oldest id held, the `?before=` of the next older page. */
export const oldestId = (messages: readonly ChatMessage[]): number | null => (messages.length === 0 ? null : messages[0]!.id);

/** A window with `incoming` merged in; `hasOlder` only ever goes from true to false. */
export const mergeWindow = (window: MessageWindow | undefined, incoming: readonly ChatMessage[], hasOlder?: boolean): MessageWindow => ({
  messages: mergeMessages(window?.messages ?? [], incoming),
  hasOlder: (window?.hasOlder ?? true) && (hasOlder ?? true),
});

/** Marks the given ids read (state 2), as the read call's answer says. */
export const markRead = (messages: readonly ChatMessage[], ids: ReadonlySet<number>): ChatMessage[] =>
  messages.map((message) => (ids.has(message.id) && message.state.id !== MESSAGE_STATE.read ? { ...message, state: READ } : message));

/**
 * Event 6: one side read `chat` up to `messageId`. `staffMessages` false: the staff read, so the
 * customer's own messages up to it are read; true: the customer read (in another tab), so staff's are.
 */
export const markReadUpTo = (messages: readonly ChatMessage[], chat: ChatName, messageId: number, staffMessages: boolean): ChatMessage[] =>
  messages.map((m) =>
    m.id <= messageId && m.state.id !== MESSAGE_STATE.read && chatOf(m.direction.id) === chat && isOwn(m.direction.id) !== staffMessages
      ? { ...m, state: READ }
      : m,
  );
