import { chatsSeenBy, staffChatOf, type ChatId } from '@app/domain';
import { isSupport, isWriter, type Actor } from '../../lib/actor';

// What an actor may see of the chat, shared by the chat's services (chat.service.ts, chat.send.service.ts).

/** CONTRACT "Staff side": a writer sees the writer chat of orders assigned to them; support both chats of every order (the domain's rule, which the staff console uses too). */
export const chatsOf = (actor: Actor): readonly ChatId[] => chatsSeenBy(actor.role);
/** The chats whose unread count is the actor's: a writer's the writer chat, support's the support chat. */
export const readsOf = (actor: Actor): readonly ChatId[] => [staffChatOf(actor.role)];

/** A customer: neither a writer nor support. */
export const isCustomer = (actor: Actor): boolean => !isSupport(actor) && !isWriter(actor);
