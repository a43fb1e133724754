import { UNSEEN_MAIL_AFTER_MS, UNSEEN_MAIL_MIN_GAP_MS, type ChatId } from '@app/domain';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { notify } from '../notifications';
import { createChatMailRepo, type UnseenMessage } from './chat.mail.repo';
import { createPeriodicJob } from '../../lib/periodic-job';

/** How many due conversations one run claims, and how long a claim holds if the process dies. */
const BATCH = 20;
const LEASE_MS = 2 * 60_000;
/** A mail the mail server refused is tried again this much later. */
const RETRY_MS = 5 * 60_000;

const describe = (m: UnseenMessage): string => {
  const parts: string[] = [];
  if (m.body) parts.push(m.body);
  if (m.sticker !== null) parts.push('[sticker]');
  if (m.emoji !== null) parts.push(m.emoji);
  if (m.fileNames.length > 0) parts.push(`[attached: ${m.fileNames.join(', ')}]`);
  return parts.join(' ');
};

/** What the job tells of: a chat's unseen staff messages. */
export interface UnseenTell {
  customerId: number;
  orderId: number;
  chat: ChatId;
  messages: UnseenMessage[];
}

/**
 * ADR 0088: the unseen messages become a `message_unseen` notification (the bell, and its mail through the
 * notifications job: folded with the order's other events, not sent when that type is off).
 */
export const notifyUnseen =
  (db: Db, clock: Clock) =>
  async (u: UnseenTell): Promise<void> => {
    await db.transaction((tx) =>
      notify(tx, {
        userId: u.customerId,
        type: 'message_unseen',
        orderId: u.orderId,
        facts: { chat: u.chat, lines: u.messages.map(describe) },
        // The messages already waited UNSEEN_MAIL_AFTER_MS: no fold window of its own.
        mailAfterMs: 0,
        now: clock.now(),
      }),
    );
  };

/**
 * The unseen-message mail (ADR 0048): a customer who has not read a staff message within 5
 * minutes gets one mail per order chat naming the unseen messages, at most one per chat an hour, none
 * when they read them meanwhile. The state lives in `chat_unseen_mail` (due time, claim lease, what the
 * last mail named), so a restart resumes, two instances share the work, and a message is never named in
 * two mails: the row records the mail before it is handed to the mailer (a crash in between loses that
 * one mail rather than sending it twice; a mailer error puts the row back).
 */
export const createUnseenMailJob = ({
  db,
  clock,
  log,
  tell,
  intervalMs,
}: {
  db: Db;
  clock: Clock;
  log: Logger;
  /** Tells the customer (the app: `notifyUnseen`, ADR 0088); a failure puts the row back. */
  tell: (u: UnseenTell) => Promise<void>;
  /** 0: never on its own (tests run it by hand) */
  intervalMs: number;
}) => {
  const repo = createChatMailRepo(db);

  const runOnce = async (): Promise<number> => {
    const now = clock.now();
    // One statement: FOR UPDATE SKIP LOCKED keeps two instances' runs off each other's rows.
    const claimed = await repo.claimDue({ now, claimedUntil: new Date(now.getTime() + LEASE_MS), limit: BATCH });
    let sent = 0;
    for (const row of claimed) {
      try {
        const { customer, messages } = await repo.unseen({ orderId: row.orderId, chat: row.chat, afterSequence: row.lastMailedSequence });
        const oldEnough = messages.filter((m) => m.createdAt.getTime() <= now.getTime() - UNSEEN_MAIL_AFTER_MS);
        const gapEnds = row.lastMailedAt ? row.lastMailedAt.getTime() + UNSEEN_MAIL_MIN_GAP_MS : 0;
        const first = messages[0];
        if (!customer || !first || oldEnough.length === 0 || now.getTime() < gapEnds) {
          // Nothing to tell yet (read meanwhile, too recent, or within the hour after the last mail).
          const dueAt = first ? new Date(Math.max(first.createdAt.getTime() + UNSEEN_MAIL_AFTER_MS, gapEnds)) : null;
          await repo.settle({ orderId: row.orderId, chat: row.chat, claimedUntil: row.claimedUntil, dueAt, mailed: null });
          continue;
        }
        const last = messages[messages.length - 1] ?? first;
        const recorded = await repo.settle({
          orderId: row.orderId,
          chat: row.chat,
          claimedUntil: row.claimedUntil,
          dueAt: null,
          mailed: { at: now, sequence: last.sequence },
        });
        if (!recorded) continue;
        try {
          await tell({ customerId: customer.id, orderId: row.orderId, chat: row.chat, messages });
          sent += 1;
        } catch (error) {
          log.warn({ err: error, orderId: row.orderId, chat: row.chat }, 'chat: the unseen-message mail was not sent; tried again later');
          await repo.restore({
            orderId: row.orderId,
            chat: row.chat,
            dueAt: new Date(now.getTime() + RETRY_MS),
            lastMailedAt: row.lastMailedAt,
            lastMailedSequence: row.lastMailedSequence,
          });
        }
      } catch (error) {
        log.error({ err: error, orderId: row.orderId, chat: row.chat }, 'chat: the unseen-message job failed on a conversation');
      }
    }
    return sent;
  };

  // The unseen mail is due in the database, so a restart resumes it (ADR 0048).
  const job = createPeriodicJob({ intervalMs, run: runOnce, log, failure: 'chat: the unseen-message run failed' });
  return { runOnce, start: job.start, stop: job.stop };
};
export type UnseenMailJob = ReturnType<typeof createUnseenMailJob>;
