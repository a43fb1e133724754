import { z } from 'zod';
import { NOTIFICATION_TYPES, STAFF_NOTIFICATION_TYPES, type AnyNotificationType } from './rules/notifications';

/** The wire (CONTRACT "Notifications"). `link` is the app path the item opens. */
export interface NotificationItem {
  id: number;
  type: AnyNotificationType;
  orderId: number | null;
  title: string;
  body: string;
  link: string | null;
  createdAt: string;
  readAt: string | null;
}
export interface NotificationList {
  notifications: NotificationItem[];
  total: number;
  unread: number;
}
/** Socket event 20. */
export interface NotificationEvent {
  notification: NotificationItem;
  unread: number;
}
export const NOTIFICATION_SOCKET_EVENT = 20;
/** ADR 0088: the user read notifications (another tab): `{ unread }`, so every tab's count stays true. */
export const NOTIFICATIONS_READ_SOCKET_EVENT = 21;

export const notificationItemSchema = z.object({
  id: z.number(),
  type: z.enum([...NOTIFICATION_TYPES, ...STAFF_NOTIFICATION_TYPES]),
  orderId: z.number().nullable(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
});
export const notificationListSchema = z.object({ notifications: z.array(notificationItemSchema), total: z.number(), unread: z.number() });
export const channelPreferenceSchema = z.object({ email: z.boolean(), push: z.boolean() });
export const notificationPreferencesSchema = z.record(z.string(), channelPreferenceSchema);
export const markReadAnswerSchema = z.object({ unread: z.number() });
/** Socket frames 20 and 21 (the chat socket, ADR 0088). */
export const notificationFrameSchema = z.union([
  z.object({ event: z.literal(NOTIFICATION_SOCKET_EVENT), data: z.object({ notification: notificationItemSchema, unread: z.number() }) }),
  z.object({ event: z.literal(NOTIFICATIONS_READ_SOCKET_EVENT), data: z.object({ unread: z.number() }) }),
]);
export type NotificationFrame = z.infer<typeof notificationFrameSchema>;
