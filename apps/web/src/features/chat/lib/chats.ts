import { chatOfDirection, isCustomerDirection, isMessageDirection, type ChatId } from '@app/domain/chat/rules';

/** SPEC §3 "Message chats": the writer chat (directions 1, 3) and the support chat (2, 6). */
export type ChatName = ChatId;

/** The chat a message of `direction` belongs to (an unknown direction counts as the writer's). */
export const chatOf = (direction: number): ChatName => (isMessageDirection(direction) ? chatOfDirection(direction) : 'writer');

/** The customer's own messages: directions 1 and 2. */
export const isOwn = (direction: number): boolean => isCustomerDirection(direction);
