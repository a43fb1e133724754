import type { ChatMessage } from '@app/domain/chat';
import { chatOf, isOwn, type ChatName } from './chats';
import type { ChatSide } from './side';

/**
 * The other side's messages of `chat` still unread, oldest first: the ones the read call may carry once
 * seen (the customer's: staff's messages; staff's: the customer's), and the console's tab badge.
 */
export const unreadIdsOf = (messages: readonly ChatMessage[], chat: ChatName, side: ChatSide = 'customer'): number[] =>
  messages.filter((m) => !isOwn(m.direction.id, side) && m.state.id === 1 && chatOf(m.direction.id) === chat).map((m) => m.id);
