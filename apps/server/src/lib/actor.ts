import { hasSupportRights, ROLE } from '@app/domain';

/**
 * Who calls a service, as the auth guard left them (the access token's account and role): a customer, a
 * writer or support. Services take this one shape; the chat, staff and revisions rules read it.
 */
export interface Actor {
  userId: number;
  role: number;
}

/** ADR 0090: support's rights: support (6) and admin (7, everything support may do). */
export const isSupport = (actor: Actor): boolean => hasSupportRights(actor.role);
export const isWriter = (actor: Actor): boolean => actor.role === ROLE.writer;
/** CONTRACT "Staff side": a writer's queries are limited to the orders assigned to them; support's are not. */
export const writerScope = (actor: Actor): number | null => (isSupport(actor) ? null : actor.userId);
