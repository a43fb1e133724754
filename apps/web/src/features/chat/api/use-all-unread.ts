import { useQuery } from '@tanstack/react-query';
import { chatKeys } from './keys';
import { getAllUnread } from './messages';

/**
 * All orders' unread messages (CONTRACT "Chat": `{ total, orders: [{ orderId, total }] }`): the
 * navigation's count and the dashboard cards. The startup socket's event 5 patches it live. A small
 * module of its own so the navigation does not load the messenger.
 */
export const useAllUnread = (enabled = true) =>
  useQuery({ queryKey: chatKeys.unreadAll(), queryFn: getAllUnread, enabled, staleTime: 60_000 });
