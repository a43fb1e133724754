import { chatOfDirection, isMessageDirection, type ChatId } from '@app/domain/chat/rules';
import { CHAT_SIDE, type ChatSide } from './side';

/** SPEC §3 "Message chats": the writer chat (directions 1, 3) and the support chat (2, 6). */
export type ChatName = ChatId;

/** The chat a message of `direction` belongs to (an unknown direction counts as the writer's). */
export const chatOf = (direction: number): ChatName => (isMessageDirection(direction) ? chatOfDirection(direction) : 'writer');

/** This side's own messages: the customer's directions 1 and 2, staff's 3 and 6. */
export const isOwn = (direction: number, side: ChatSide = 'customer'): boolean => CHAT_SIDE[side].isOwn(direction);
