/**
 * CONTRACT "Notifications" (ADR 0088): the kinds of event a customer is told of, what can be turned off,
 * how mails fold, and when an unpaid order's reminders fall. Pure rules; the server and the web app share them.
 */
export const NOTIFICATION_TYPES = [
  'payment_received',
  'writer_assigned',
  'delivered',
  'completed',
  'deadline_soon',
  'extension_requested',
  'revision_updated',
  'payment_reminder',
  'refund_issued',
  'dispute_updated',
  'message_unseen',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** What staff must act on: their console's bell only (no mail: ADR 0084's staff mails stay). */
export const STAFF_NOTIFICATION_TYPES = ['order_assigned', 'changes_requested', 'extension_expired'] as const;
export type StaffNotificationType = (typeof STAFF_NOTIFICATION_TYPES)[number];
export type AnyNotificationType = NotificationType | StaffNotificationType;
export const isStaffNotificationType = (value: unknown): value is StaffNotificationType =>
  typeof value === 'string' && (STAFF_NOTIFICATION_TYPES as readonly string[]).includes(value);

export const isNotificationType = (value: unknown): value is NotificationType =>
  typeof value === 'string' && (NOTIFICATION_TYPES as readonly string[]).includes(value);

/**
 * Receipts (a payment's receipt, a refund's credit note) are records of money, not news: their mail cannot
 * be turned off (CONTRACT), and they are mailed even when already seen in the app.
 */
export const LOCKED_EMAIL_TYPES: readonly NotificationType[] = ['payment_received', 'refund_issued'];
export const isEmailLocked = (type: NotificationType): boolean => LOCKED_EMAIL_TYPES.includes(type);
/** Why a locked row cannot be changed (the preferences table shows it). */
export const LOCKED_EMAIL_REASON = 'Receipts are records of your payments and are always sent.';

export const NOTIFICATION_LABEL: Record<NotificationType, string> = {
  payment_received: 'Payment received',
  writer_assigned: 'Writer assigned',
  delivered: 'Work delivered',
  completed: 'Order completed',
  deadline_soon: 'Deadline in 24 hours',
  extension_requested: 'New deadline proposed',
  revision_updated: 'Revision updated',
  payment_reminder: 'Payment reminder',
  refund_issued: 'Refund issued',
  dispute_updated: 'Dispute updated',
  message_unseen: 'Unread chat messages',
};

export interface ChannelPreference {
  email: boolean;
  push: boolean;
}
export type NotificationPreferences = Record<NotificationType, ChannelPreference>;

/** Every type starts on for mail; push is opt-in (the browser asks after the first order). */
export const defaultPreferences = (): NotificationPreferences =>
  Object.fromEntries(NOTIFICATION_TYPES.map((t) => [t, { email: true, push: false }])) as NotificationPreferences;

/** Stored rows over the defaults; a locked type's mail is on whatever a row says. */
export const effectivePreferences = (rows: readonly { type: string; email: boolean; push: boolean }[]): NotificationPreferences => {
  const prefs = defaultPreferences();
  for (const row of rows) if (isNotificationType(row.type)) prefs[row.type] = { email: row.email, push: row.push };
  for (const type of LOCKED_EMAIL_TYPES) prefs[type] = { ...prefs[type], email: true };
  return prefs;
};

/**
 * Events of one order within this window make one mail: a mail waits this long after the first event it
 * would tell of, gathering the others (CONTRACT "a few minutes").
 */
export const NOTIFICATION_FOLD_MS = 3 * 60_000;

/** An unpaid order's reminders: at about 30 % and 80 % of the time from its creation to its deadline. */
export const PAYMENT_REMINDER_FRACTIONS = [0.3, 0.8] as const;
export const paymentReminderTimes = (createdAt: Date, deadline: Date): Date[] => {
  const span = deadline.getTime() - createdAt.getTime();
  if (span <= 0) return [];
  return PAYMENT_REMINDER_FRACTIONS.map((f) => new Date(createdAt.getTime() + Math.round(span * f)));
};
/** deadline_soon: 24 hours before the deadline. */
export const DEADLINE_SOON_MS = 24 * 60 * 60_000;

/** `PUT …/notifications/read { ids }`: at most this many ids in one call (a bigger list is refused, 422). */
export const MARK_READ_IDS_MAX = 500;
export const NOTIFICATIONS_PAGE_MAX = 100;

export const NOTIFICATION_MESSAGE = {
  tooManyIds: `Mark at most ${MARK_READ_IDS_MAX} notifications at once, or all of them.`,
  idsOrAll: 'Send the ids to mark, or all: true.',
  unknownType: 'Unknown notification type.',
  locked: LOCKED_EMAIL_REASON,
} as const;

/** The order page tab each type opens (`/orderinfo/{id}/{tab}`). */
/** The delivery panel heads the order page (every tab); the details tab is where it opens. */
export const notificationTab = (type: AnyNotificationType): 'details' | 'messages' | 'revisions' =>
  type === 'message_unseen' ? 'messages' : type === 'revision_updated' ? 'revisions' : 'details';
export const notificationLink = (
  type: AnyNotificationType,
  orderId: number | null,
  data: { revisionId?: unknown; chat?: unknown } = {},
): string | null => {
  if (orderId === null) return null;
  if (isStaffNotificationType(type)) return `/staff/orders/${orderId}`;
  const base = `/orderinfo/${orderId}/${notificationTab(type)}`;
  if (type === 'revision_updated' && typeof data.revisionId === 'number') return `${base}?revision=${data.revisionId}`;
  if (type === 'message_unseen' && data.chat === 'support') return `${base}?panel=support`;
  return base;
};
