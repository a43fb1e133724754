import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { createPeriodicJob } from '../../lib/periodic-job';
import type { MailAttachment, MailRepo, QueuedMail } from './mail.repo';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post: ADR 0088). */
  headers?: Record<string, string>;
  attachments?: MailAttachment[];
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  /**
   * Stores the mail (ADR 0074): in the dev outbox, or queued for the SMTP delivery job. Nothing is sent
   * on the caller's path; once this resolves the mail is in the database and will go out.
   */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Hands one mail to the SMTP server; resolves once the server accepted it. */
export type SmtpSend = (mail: QueuedMail) => Promise<void>;

/**
 * CONTRACT "Identity": SMTP when SMTP_URL is set, otherwise the built-in outbox. Either way the mail is a
 * row of mail_outbox first (ADR 0074); with SMTP the delivery job sends it, and `queued` wakes the job
 * so that a mail normally leaves within moments. The log names each mail, never its links or tokens (ADR 0039).
 */
export const createMailer = (opts: {
  smtp: boolean;
  repo: MailRepo;
  clock: Clock;
  log: Logger;
  /** A mail was queued for SMTP (the delivery job's nudge). */
  queued?: () => void;
}): Mailer => {
  const kind = opts.smtp ? 'smtp' : 'outbox';
  return {
    kind,
    send: async (m) => {
      await opts.repo.insert({
        to: m.to,
        subject: m.subject,
        text: m.text,
        html: m.html ?? '',
        transport: kind,
        now: opts.clock.now(),
        headers: m.headers,
        attachments: m.attachments,
      });
      opts.log.info({ to: m.to, subject: m.subject }, kind === 'smtp' ? 'mail queued' : 'mail to outbox');
      if (kind === 'smtp') opts.queued?.();
    },
    close: () => undefined,
  };
};

/** ADR 0074: the first retry after this, doubling with every failed attempt, at most RETRY_MAX_MS. */
export const RETRY_BASE_MS = 30_000;
export const RETRY_MAX_MS = 10 * 60_000;
/** The delay after the `attempts`-th failed attempt: 30 s, 1 min, 2 min, 4 min, 8 min, then every 10 min. */
export const mailRetryDelayMs = (attempts: number): number => Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
/** A claim's lease: longer than the SMTP client's own limits (connect 10 s, greeting 10 s, idle socket 30 s). */
export const CLAIM_LEASE_MS = 5 * 60_000;
/** Mails one run sends at most (the next run goes on). */
const RUN_MAX = 100;

export interface MailDelivery {
  /** Sends what is due now, one claimed mail at a time; returns how many were sent. */
  runOnce(): Promise<number>;
  /** A mail was queued: a run soon (when started), joined to the one in progress if any. */
  nudge(): void;
  /** The periodic runs (the app's onReady); nothing when the interval is 0. */
  start(): void;
  /** Stops after the mail in hand (sent and marked) and waits for it (the app's onClose). */
  stop(): Promise<void>;
}

/**
 * ADR 0074: the SMTP delivery job, on every instance. Each mail is claimed with a lease (two instances
 * never send one mail; a crash frees it after the lease), handed to the SMTP server, and marked sent only
 * once the server accepted it; a failure keeps it queued for a later attempt, `mailRetryDelayMs` later.
 * A mail that was accepted but could not be marked (the database away just then) is marked first on the
 * next run, so it is not sent again. The queue lives in the database, so a restart resumes it.
 */
export const createMailDelivery = ({
  repo,
  send,
  clock,
  log,
  intervalMs,
}: {
  repo: MailRepo;
  send: SmtpSend;
  clock: Clock;
  log: Logger;
  intervalMs: number;
}): MailDelivery => {
  let stopping = false;
  let started = false;
  /** Accepted by the SMTP server, not yet marked sent. */
  const unmarked = new Set<number>();

  const markUnmarked = async (): Promise<boolean> => {
    for (const id of unmarked) {
      try {
        await repo.markSent(id, clock.now());
        unmarked.delete(id);
      } catch {
        return false;
      }
    }
    return true;
  };

  const runOnce = async (): Promise<number> => {
    if (!(await markUnmarked())) return 0;
    let sent = 0;
    while (!stopping && sent < RUN_MAX) {
      const now = clock.now();
      const mail = await repo.claimDue({ now, leaseUntil: new Date(now.getTime() + CLAIM_LEASE_MS) });
      if (!mail) break;
      try {
        await send(mail);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const nextAt = new Date(clock.now().getTime() + mailRetryDelayMs(mail.attempts));
        await repo.markFailed(mail.id, { nextAt, reason });
        // The recipient and subject only: the body carries links (ADR 0039).
        log.warn(
          { mailId: mail.id, to: mail.to, subject: mail.subject, attempts: mail.attempts, nextAttemptAt: nextAt.toISOString(), reason },
          'mail not sent: queued for another attempt',
        );
        // The server is likely away: the other due mails wait for the next run rather than each failing now.
        break;
      }
      sent += 1;
      unmarked.add(mail.id);
      await markUnmarked();
      log.info({ mailId: mail.id, to: mail.to, subject: mail.subject, attempts: mail.attempts }, 'mail sent');
    }
    return sent;
  };

  // One run at a time in this process: a nudge during a run makes it look again before it ends.
  let draining: Promise<number> | undefined;
  let again = false;
  const drain = (): Promise<number> => {
    if (draining) {
      again = true;
      return draining;
    }
    draining = (async () => {
      let total = 0;
      do {
        again = false;
        total += await runOnce();
      } while (again && !stopping);
      return total;
    })().finally(() => {
      draining = undefined;
    });
    return draining;
  };

  const job = createPeriodicJob({ intervalMs, run: drain, log, failure: 'mail delivery run failed' });
  return {
    runOnce: drain,
    nudge: () => {
      if (!started || stopping) return;
      drain().catch((error: unknown) => log.error({ err: error }, 'mail delivery run failed'));
    },
    start: () => {
      if (intervalMs <= 0) return;
      started = true;
      job.start();
    },
    stop: async () => {
      stopping = true;
      await job.stop();
      await draining?.catch(() => undefined);
    },
  };
};
