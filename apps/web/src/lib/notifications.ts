import type { QueryClient } from '@tanstack/react-query';
import type { NotificationFrame, NotificationList } from '@app/domain/notification';

// ADR 0088: the bell's cache, shared by the notifications feature and the chat socket's session (lib/chat).

/** Whose bell: the customer's (`/api/en/customers/…`) or the staff console's (`/api/staff/…`). */
export type BellSide = 'customer' | 'staff';
export const notificationsBase = (side: BellSide) => (side === 'customer' ? '/api/en/customers/notifications' : '/api/staff/notifications');
/** The newest this many are in the bell (the list's first page). */
export const BELL_LIMIT = 30;

/** Query keys of the notifications feature (one factory per feature, DESIGN "Layout"). */
export const notificationKeys = {
  all: ['notifications'] as const,
  list: (side: BellSide) => [...notificationKeys.all, 'list', side] as const,
  preferences: () => [...notificationKeys.all, 'preferences'] as const,
};

/**
 * Socket events 20 and 21 (ADR 0088), from the tab's one chat socket (lib/chat/session.ts): a new one goes
 * to the top of the list with the server's unread count; read elsewhere, the count is the server's and the list is read again.
 */
export const applyNotificationFrame = (queryClient: QueryClient, side: BellSide, frame: NotificationFrame): void => {
  const key = notificationKeys.list(side);
  if (frame.event === 20) {
    const { notification, unread } = frame.data;
    const list = queryClient.getQueryData<NotificationList>(key);
    if (!list) {
      void queryClient.invalidateQueries({ queryKey: key });
      return;
    }
    if (list.notifications.some((n) => n.id === notification.id)) return;
    queryClient.setQueryData<NotificationList>(key, {
      notifications: [notification, ...list.notifications].slice(0, BELL_LIMIT),
      total: list.total + 1,
      unread,
    });
    return;
  }
  queryClient.setQueryData<NotificationList>(key, (list) => (list ? { ...list, unread: frame.data.unread } : list));
  void queryClient.invalidateQueries({ queryKey: key });
};
