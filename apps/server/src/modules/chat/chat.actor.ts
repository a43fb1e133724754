import { chatsSeenBy, ROLE, staffChatOf, type ChatId } from '@app/domain';

// Who calls the chat and what they may see, shared by the chat's services (chat.service.ts, chat.send.service.ts).

/** The answer to an order, message or file that is not the actor's (CONTRACT "Errors and access"). */
export const NOT_FOUND = 'Not found';

/** Who calls: a customer, or a staff member (writer 3, support 6), as the auth guard left them. */
export interface ChatActor {
  userId: number;
  role: number;
}
export const isSupport = (actor: ChatActor): boolean => actor.role === ROLE.support;
export const isWriter = (actor: ChatActor): boolean => actor.role === ROLE.writer;
/** CONTRACT "Staff side": a writer sees the writer chat of orders assigned to them; support both chats of every order (the domain's rule, which the staff console uses too). */
export const chatsOf = (actor: ChatActor): readonly ChatId[] => chatsSeenBy(actor.role);
/** The chats whose unread count is the actor's: a writer's the writer chat, support's the support chat. */
export const readsOf = (actor: ChatActor): readonly ChatId[] => [staffChatOf(actor.role)];

/** A customer: neither a writer nor support. */
export const isCustomer = (actor: ChatActor): boolean => !isSupport(actor) && !isWriter(actor);
