import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationList, NotificationPreferences } from '@app/domain/notification';
import { apiFetch } from '@/lib/api-client';
import { BELL_LIMIT, notificationKeys, notificationsBase as base, type BellSide } from '@/lib/notifications';

export { notificationKeys, type BellSide };

const listSchema = () => import('@app/domain/notification').then((m) => m.notificationListSchema);

/** CONTRACT "Notifications": the newest notifications with the total and the unread count. */
export const useNotifications = (side: BellSide) =>
  useQuery({
    queryKey: notificationKeys.list(side),
    queryFn: ({ signal }): Promise<NotificationList> => apiFetch(`${base(side)}?limit=${BELL_LIMIT}`, { schema: listSchema, signal }),
  });

/** `{ ids }` or `{ all: true }`; the answer's unread count goes into the cache at once. */
export const useMarkRead = (side: BellSide) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: number[] } | { all: true }) =>
      apiFetch(`${base(side)}/read`, {
        method: 'PUT',
        json: body,
        schema: () => import('@app/domain/notification').then((m) => m.markReadAnswerSchema),
      }),
    onMutate: (body) => {
      const now = new Date().toISOString();
      queryClient.setQueryData<NotificationList>(notificationKeys.list(side), (list) =>
        list
          ? {
              ...list,
              notifications: list.notifications.map((n) =>
                'all' in body || body.ids.includes(n.id) ? { ...n, readAt: n.readAt ?? now } : n,
              ),
            }
          : list,
      );
    },
    onSuccess: ({ unread }) =>
      queryClient.setQueryData<NotificationList>(notificationKeys.list(side), (list) => (list ? { ...list, unread } : list)),
  });
};

const preferencesSchema = () => import('@app/domain/notification').then((m) => m.notificationPreferencesSchema);

export const usePreferences = () =>
  useQuery({
    queryKey: notificationKeys.preferences(),
    queryFn: ({ signal }) =>
      apiFetch('/api/en/customers/notification-preferences', { schema: preferencesSchema, signal }) as Promise<NotificationPreferences>,
  });

/** Applies at once (CONTRACT): the answer is every type's choice. */
export const useSetPreference = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: Record<string, { email?: boolean; push?: boolean }>) =>
      apiFetch('/api/en/customers/notification-preferences', {
        method: 'PUT',
        json: change,
        schema: preferencesSchema,
      }) as Promise<NotificationPreferences>,
    // The box shows the change at once; the server's answer (every type) replaces it, a refusal puts it back.
    onMutate: async (change) => {
      // A read of the preferences still under way would answer what was saved before this change.
      await queryClient.cancelQueries({ queryKey: notificationKeys.preferences() });
      const before = queryClient.getQueryData<NotificationPreferences>(notificationKeys.preferences());
      if (before) {
        const next = { ...before };
        for (const [type, c] of Object.entries(change)) {
          const key = type as keyof NotificationPreferences;
          next[key] = { ...next[key], ...c };
        }
        queryClient.setQueryData(notificationKeys.preferences(), next);
      }
      return { before };
    },
    onError: (_error, _change, context) => {
      if (context?.before) queryClient.setQueryData(notificationKeys.preferences(), context.before);
    },
    onSuccess: (prefs) => queryClient.setQueryData(notificationKeys.preferences(), prefs),
  });
};
