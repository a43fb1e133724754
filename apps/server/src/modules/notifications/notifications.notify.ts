import {
  centsToAmount,
  effectivePreferences,
  isEmailLocked,
  isStaffNotificationType,
  NOTIFICATION_FOLD_MS,
  type AnyNotificationType,
  type NotificationType,
  type StaffNotificationType,
} from '@app/domain';
import type { Queryable } from '../../db/client';
import { createNotificationsRepo } from './notifications.repo';

/** What the event says beyond its type (each optional; the text uses what its type needs). */
export interface NotificationFacts {
  /** the delivery's review date */
  reviewBy?: Date;
  /** a proposed or current deadline */
  deadline?: Date;
  answerBy?: Date;
  amountCents?: number;
  /** the settled payment (its receipt goes with the mail) */
  paymentId?: string;
  /** a refund's transaction (its credit note) */
  transactionId?: number;
  revisionId?: number;
  revisionStatus?: string;
  /** the unseen chat's messages (message_unseen) */
  lines?: string[];
  chat?: 'writer' | 'support';
  note?: string;
}

export interface NotifyEvent {
  /** the customer (or staff member) told */
  userId: number;
  type: AnyNotificationType;
  orderId: number | null;
  facts?: NotificationFacts;
  /** Made once: a second notify with the same key is nothing (the reminders' job). */
  dedupeKey?: string;
  /** When the mail may go at the earliest; default now + the fold window. */
  mailAfterMs?: number;
  now: Date;
}

/**
 * A notification was made and committed (the socket tells the user's tabs, event 20), or the user read
 * some (no `notificationId`: their other tabs hear the new count, event 21).
 */
export type NotifiedListener = (n: { userId: number; notificationId?: number }) => void;
const listeners = new Set<NotifiedListener>();
/** The app (app.ts) hands each new notification to the chat bus; returns the unsubscribe. */
export const onNotified = (listener: NotifiedListener): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const announce = (n: { userId: number; notificationId?: number }) => {
  for (const listener of listeners) listener(n);
};
export const announceRead = ({ userId }: { userId: number }): void => announce({ userId });

const day = (d: Date | undefined): string => (d ? d.toUTCString().replace(/:\d\d GMT$/, ' UTC') : '');

/** The staff console's bell (ADR 0088): what the writer or support must act on. */
export const staffNotificationText = (type: StaffNotificationType, orderId: number | null, title: string, f: NotificationFacts) => {
  const named = title ? `"${title}" (order #${orderId ?? ''})` : `order #${orderId ?? ''}`;
  switch (type) {
    case 'order_assigned':
      return { title: `You were assigned order #${orderId ?? ''}`, body: `Support assigned ${named} to you.` };
    case 'changes_requested':
      return { title: `Changes requested on order #${orderId ?? ''}`, body: f.note ?? `The customer asks for changes to ${named}.` };
    case 'extension_expired':
      return {
        title: `A proposed deadline of order #${orderId ?? ''} was not answered`,
        body: `The customer did not answer the new deadline proposed for ${named}; the original deadline stands.`,
      };
  }
};

/** The title and body of each type (CONTRACT "Notifications"). */
export const notificationText = (type: NotificationType, orderId: number | null, title: string, f: NotificationFacts) => {
  const order = orderId === null ? '' : `order #${orderId}`;
  const named = title ? `"${title}" (${order})` : order;
  switch (type) {
    case 'payment_received':
      return {
        title: `Payment received for ${order}`,
        body: `We received your payment${f.amountCents ? ` of $${centsToAmount(f.amountCents).toFixed(2)}` : ''} for ${named}. Your receipt is attached to the email and on the Transactions page.`,
      };
    case 'writer_assigned':
      return { title: `A writer is working on ${order}`, body: `A writer was assigned to ${named} and has started work.` };
    case 'delivered':
      return {
        title: `Your work for ${order} is ready`,
        body: `Your writer delivered ${named}. Review it and accept it or ask for changes${f.reviewBy ? ` by ${day(f.reviewBy)}` : ''}.`,
      };
    case 'completed':
      return {
        title: `${order[0]?.toUpperCase() ?? ''}${order.slice(1)} is complete`,
        body: `${named} is complete. Your free revision window starts now.`,
      };
    case 'deadline_soon':
      return {
        title: `${order[0]?.toUpperCase() ?? ''}${order.slice(1)} is due in 24 hours`,
        body: `The deadline of ${named} is ${day(f.deadline)}.`,
      };
    case 'extension_requested':
      return {
        title: `Your writer asks for more time on ${order}`,
        body: `Your writer proposes a new deadline for ${named}: ${day(f.deadline)}.${f.note ? ` Why: ${f.note}` : ''} Answer by ${day(f.answerBy)}; without an answer the original deadline stands.`,
      };
    case 'revision_updated':
      return {
        title: `Revision of ${order}: ${f.revisionStatus ?? 'updated'}`,
        body: `Your revision request for ${named} is now ${f.revisionStatus ?? 'updated'}.`,
      };
    case 'payment_reminder':
      return {
        title: `${order[0]?.toUpperCase() ?? ''}${order.slice(1)} is waiting for payment`,
        body: `${named} is not paid yet, so no writer can start. Pay to keep your deadline${f.deadline ? ` (${day(f.deadline)})` : ''}.`,
      };
    case 'refund_issued':
      return {
        title: `Refund issued for ${order}`,
        body: `We refunded${f.amountCents ? ` $${centsToAmount(f.amountCents).toFixed(2)}` : ''} for ${named}. Your credit note is on the Transactions page.`,
      };
    case 'dispute_updated':
      return { title: `Your dispute about ${order} was updated`, body: `${f.note ?? 'Support answered your dispute.'}` };
    case 'message_unseen':
      return {
        title: `${f.chat === 'support' ? 'Support' : 'Your writer'} sent you a message about ${order}`,
        body: (f.lines ?? []).join('\n').slice(0, 1000) || 'You have an unread message.',
      };
  }
};

/**
 * ADR 0088, the one notification path: inside the caller's transaction (the payment, the assignment, the
 * delivery…), it stores the notification and, when the user's preferences let its type mail, leaves its
 * mail waiting (`pending`) for the notifications mail job: events of one order within the fold window
 * make one mail, and one read in the app meanwhile is not mailed. Once the transaction commits the user's
 * open tabs hear it (socket event 20). Returns the new notification's id (null: already made, its dedupe key).
 */
export const notify = async (tx: Queryable, e: NotifyEvent): Promise<number | null> => {
  const repo = createNotificationsRepo(tx);
  const facts = e.facts ?? {};
  const title = e.orderId === null ? '' : await repo.orderTitle(e.orderId);
  const staff = isStaffNotificationType(e.type);
  const text = isStaffNotificationType(e.type)
    ? staffNotificationText(e.type, e.orderId, title, facts)
    : notificationText(e.type, e.orderId, title, facts);
  // Staff notifications are the console's bell only; a customer's type mails when their preference says so.
  const mails =
    !isStaffNotificationType(e.type) &&
    (isEmailLocked(e.type) || effectivePreferences((await repo.preferences(e.userId)).filter((p) => p.type === e.type))[e.type].email);
  // A burst joins the mail already waiting for this order; otherwise a new window opens.
  const ownDue = new Date(e.now.getTime() + (e.mailAfterMs ?? NOTIFICATION_FOLD_MS));
  const waiting = mails ? await repo.pendingDueAt({ userId: e.userId, orderId: e.orderId }) : null;
  const row = await repo.insert({
    userId: e.userId,
    type: e.type,
    orderId: e.orderId,
    title: text.title.slice(0, 200),
    body: text.body.slice(0, 2000),
    data: {
      ...facts,
      ...(facts.reviewBy ? { reviewBy: facts.reviewBy.toISOString() } : {}),
      ...(facts.deadline ? { deadline: facts.deadline.toISOString() } : {}),
      ...(facts.answerBy ? { answerBy: facts.answerBy.toISOString() } : {}),
    },
    now: e.now,
    mailState: mails ? 'pending' : staff ? 'none' : 'skipped',
    mailDueAt: mails ? (waiting && waiting < ownDue ? waiting : ownDue) : null,
    dedupeKey: e.dedupeKey ?? null,
  });
  if (!row) return null;
  const told = { userId: e.userId, notificationId: row.id };
  if (tx.afterCommit) tx.afterCommit(() => announce(told));
  else announce(told);
  return row.id;
};

/** The same event for every account of a staff role (support's alerts): one notification each. */
export const notifyRole = async (tx: Queryable, e: Omit<NotifyEvent, 'userId'> & { role: number }): Promise<void> => {
  const { role, ...event } = e;
  for (const userId of await createNotificationsRepo(tx).usersWithRole(role)) await notify(tx, { ...event, userId });
};
