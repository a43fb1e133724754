import { DEADLINE_SOON_MS, effectivePreferences, isEmailLocked, ORDER_STATUS, PAYMENT_REMINDER_FRACTIONS } from '@app/domain';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { createMailRepo, type MailAttachment } from '../mail';
import { notify } from './notifications.notify';
import { createNotificationsRepo, type CustomerNotificationRow } from './notifications.repo';
import { renderNotificationMail } from './notifications.templates';
import type { UnsubscribeTokens } from './notifications.unsubscribe';

/** A payment's receipt or a refund's credit note as a PDF, for the customer who owns it; null when it is not theirs. */
export type DocumentPdf = (
  q: Db,
  args: { customerId: number; paymentId?: string; transactionId?: number; fontFile: string | undefined },
) => Promise<{ fileName: string; pdf: Buffer } | null>;

/** A claimed group's lease: a run that dies leaves it to another after this. */
export const NOTIFICATION_MAIL_LEASE_MS = 2 * 60_000;
/** Groups (mails) and reminders one run handles at most; the next run goes on. */
const RUN_MAX = 100;

export interface NotificationJobDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  origin: string;
  mailTransport: 'smtp' | 'outbox';
  tokens: UnsubscribeTokens;
  fontFile: string | undefined;
  /**
   * ADR 0085: a receipt's or credit note's PDF (the transactions module's `documentPdfOfPayment`, given by
   * the composition root: the transactions module reaches the orders module, which notifies).
   */
  documentPdf: DocumentPdf;
  /** A mail was queued (the SMTP delivery job's nudge). */
  queued?: () => void;
}

/**
 * ADR 0088, the notifications job, on every instance (like the after-payment job: its state is in the
 * database, each item is taken with SKIP LOCKED and a lease, so one instance handles it and a restart resumes):
 * 1. reminders: an unpaid order's payment reminders at 30 % and 80 % of its time, a deadline 24 h away;
 * 2. mails: each user's order whose waiting mail is due becomes one mail in mail_outbox (the durable queue,
 *    ADR 0074) naming its events not read in the app meanwhile and whose type's mail is still on (a receipt
 *    always), in the transaction that marks them mailed: each event is mailed once.
 */
export const createNotificationJobs = (deps: NotificationJobDeps) => {
  const { db, clock, log, origin } = deps;

  const reminders = async (now: Date): Promise<number> => {
    let made = 0;
    // Unpaid orders past one of their reminder moments (and before their deadline), each moment once.
    const repo = createNotificationsRepo(db);
    const tell = async (
      r: { orderId: number; customerId: number; deadline: Date },
      type: 'payment_reminder' | 'deadline_soon',
      key: string,
    ) => {
      const id = await db.transaction((tx) =>
        notify(tx, {
          userId: r.customerId,
          type,
          orderId: r.orderId,
          facts: { deadline: r.deadline },
          dedupeKey: key,
          mailAfterMs: 0,
          now,
        }),
      );
      if (id !== null) made += 1;
    };
    const epoch = (d: Date) => Math.floor(d.getTime() / 1000);
    // Unpaid orders past one of their reminder moments (and before their deadline), each moment once per deadline.
    for (const [index, fraction] of PAYMENT_REMINDER_FRACTIONS.entries()) {
      for (const r of await repo.duePaymentReminders({ now, fraction, index, unpaid: ORDER_STATUS.unpaid, limit: RUN_MAX }))
        await tell(r, 'payment_reminder', `payment_reminder:${r.orderId}:${index}:${epoch(r.deadline)}`);
    }
    // Orders being written whose deadline is within 24 h, once per deadline.
    for (const r of await repo.dueDeadlineSoon({
      now,
      withinMs: DEADLINE_SOON_MS,
      statuses: [ORDER_STATUS.paid, ORDER_STATUS.inProgress],
      limit: RUN_MAX,
    }))
      await tell(r, 'deadline_soon', `deadline_soon:${r.orderId}:${epoch(r.deadline)}`);
    return made;
  };

  /** What still deserves mail in a claimed group: not read in the app (a receipt always), its type on, a reminder still unpaid. */
  const decide = async (rows: CustomerNotificationRow[]) => {
    const [first] = rows;
    if (!first) return { mail: [], skip: [] };
    const repo = createNotificationsRepo(db);
    const prefs = effectivePreferences(await repo.preferences(first.userId));
    const status = first.orderId === null ? null : await repo.orderStatus(first.orderId);
    const mail: CustomerNotificationRow[] = [];
    const skip: CustomerNotificationRow[] = [];
    for (const row of rows) {
      const keep = isEmailLocked(row.type)
        ? true
        : row.readAt === null && prefs[row.type].email && (row.type !== 'payment_reminder' || status === ORDER_STATUS.unpaid);
      (keep ? mail : skip).push(row);
    }
    return { mail, skip };
  };

  const mails = async (now: Date): Promise<number> => {
    let queued = 0;
    for (let i = 0; i < RUN_MAX; i += 1) {
      const leaseUntil = new Date(now.getTime() + NOTIFICATION_MAIL_LEASE_MS);
      const rows = await db.transaction((tx) => createNotificationsRepo(tx).claimDueGroup({ now, leaseUntil }));
      const [first] = rows;
      if (!first) break;
      try {
        const { mail, skip } = await decide(rows);
        const user = await createNotificationsRepo(db).mailbox(first.userId);
        let message: {
          subject: string;
          html: string;
          text: string;
          headers: Record<string, string>;
          attachments: MailAttachment[];
        } | null = null;
        if (user && mail.length > 0) {
          // A receipt's PDF goes with its mail (ADR 0085's documents).
          const attachments: MailAttachment[] = [];
          for (const row of mail) {
            const paymentId = typeof row.data.paymentId === 'string' ? row.data.paymentId : undefined;
            const transactionId = typeof row.data.transactionId === 'number' ? row.data.transactionId : undefined;
            if ((row.type === 'payment_received' && paymentId) || (row.type === 'refund_issued' && transactionId)) {
              const doc = await deps.documentPdf(db, {
                customerId: first.userId,
                ...(paymentId ? { paymentId } : {}),
                ...(transactionId ? { transactionId } : {}),
                fontFile: deps.fontFile,
              });
              if (doc) attachments.push({ filename: doc.fileName, contentType: 'application/pdf', content: doc.pdf.toString('base64') });
            }
          }
          // The unsubscribe names the newest event that can be turned off; a mail of receipts only has none.
          const optional = [...mail].reverse().find((r) => !isEmailLocked(r.type));
          const unsubscribeUrl = optional
            ? `${origin}/api/notifications/unsubscribe?token=${deps.tokens.issue({ userId: first.userId, type: optional.type, at: now })}`
            : null;
          const rendered = await renderNotificationMail({ firstName: user.firstName, items: mail, origin, unsubscribeUrl });
          message = {
            ...rendered,
            headers: unsubscribeUrl
              ? { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
              : {},
            attachments,
          };
        }
        const done = await db.transaction(async (tx) => {
          // Still this run's claim (not taken over after a lease ran out): else another run mails them.
          if (!(await createNotificationsRepo(tx).stillClaimed({ ids: rows.map((r) => r.id), leaseUntil }))) return false;
          const r = createNotificationsRepo(tx);
          if (message && user) await createMailRepo(tx).insert({ to: user.email, transport: deps.mailTransport, now, ...message });
          await r.settleMail({ ids: (message ? mail : []).map((m) => m.id), state: 'mailed' });
          await r.settleMail({ ids: [...skip, ...(message ? [] : mail)].map((m) => m.id), state: 'skipped' });
          return true;
        });
        if (done && message && user) {
          queued += 1;
          log.info(
            { to: user.email, subject: message.subject, events: mail.length },
            deps.mailTransport === 'smtp' ? 'mail queued' : 'mail to outbox',
          );
          deps.queued?.();
        }
      } catch (error) {
        // The claim runs out and another run tries again (nothing was marked).
        log.error({ err: error, userId: first.userId, orderId: first.orderId }, 'notifications: a mail could not be made');
      }
    }
    return queued;
  };

  return {
    /** One run at `asOf` (the clock's now unless a test gives a later time): reminders first, then the mails due. */
    runOnce: async (asOf?: Date): Promise<{ reminders: number; mails: number }> => {
      const now = asOf ?? clock.now();
      const made = await reminders(now);
      const queued = await mails(now);
      return { reminders: made, mails: queued };
    },
  };
};
export type NotificationJobs = ReturnType<typeof createNotificationJobs>;
