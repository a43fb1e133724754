// Which chats of an order a role sees and answers: one rule for the chat server (chat.actor.ts) and the
// web's staff console (its tabs and composer), so the two cannot drift apart.
import { ROLE } from '../../auth/rules/accounts';
import { CHAT, CHATS, type ChatId } from './messages';

/**
 * CONTRACT "Staff side": a writer sees the writer chat of the orders assigned to them; support sees both
 * chats of every order; a customer both chats of their own orders.
 */
export const chatsSeenBy = (role: number): readonly ChatId[] => (role === ROLE.writer ? [CHAT.writer] : CHATS);

/**
 * The one chat a staff member writes in and whose unread count and read pointer are theirs (ADR 0047): a
 * writer's the writer chat, support's the support chat (support reads the writer chat without answering).
 */
export const staffChatOf = (role: number): ChatId => (role === ROLE.writer ? CHAT.writer : CHAT.support);
