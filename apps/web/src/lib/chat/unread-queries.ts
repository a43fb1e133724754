import { useQuery } from '@tanstack/react-query';
import type { OrderUnread } from '@app/domain/chat';
import { getAllUnread, getOrderUnread } from './api';
import { chatKeys } from './keys';
import type { ChatSide } from './side';

/**
 * The unread counts the chat server carries (CONTRACT "Chat"), kept live by the session's event 5 and
 * read answers. A small module of its own so the navigation, the order page and the dashboard cards do
 * not load the messenger.
 */
const NO_UNREAD: OrderUnread = { total: 0, writer: 0, support: 0 };

/** All orders' unread messages: the navigation's count, the staff queue. */
export const useAllUnread = (side: ChatSide, enabled = true) =>
  useQuery({ queryKey: chatKeys.unreadAll(), queryFn: () => getAllUnread(side), enabled, staleTime: 60_000 });

/** One order's unread total from the same summary (a dashboard card), undefined until it is loaded. */
export const useUnreadTotal = (orderId: number): number | undefined =>
  useQuery({
    queryKey: chatKeys.unreadAll(),
    queryFn: () => getAllUnread('customer'),
    staleTime: 60_000,
    select: (summary) => summary.orders.find((o) => o.orderId === orderId)?.total ?? 0,
  }).data;

/** One order's unread per chat. */
export const useOrderUnread = (side: ChatSide, orderId: number, enabled = true): OrderUnread =>
  useQuery({ queryKey: chatKeys.unread(orderId), queryFn: () => getOrderUnread(side, orderId), enabled }).data ?? NO_UNREAD;
