import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { createMailRepo } from './mail.repo';
import { createMailDelivery, createMailer } from './mail.service';
import { createSmtpSend } from './mail.smtp';

export { createMailRepo, type MailAttachment, type MailRepo, type OutboxMail } from './mail.repo';
export { createMailDelivery, mailRetryDelayMs, type Mailer, type MailDelivery, type MailMessage } from './mail.service';
export { createSmtpSend } from './mail.smtp';
export { mailRoutes } from './mail.routes';
/** The account deletion's erase step (ADR 0052, 0077). */
export { eraseMailTo } from './mail.personal-data.repo';

/**
 * The app's mail (ADR 0074): every mail a row of mail_outbox first; with SMTP_URL a delivery job on this
 * instance sends the queue (`start` on ready, `stop` on close), woken by each new mail.
 */
export const createMailing = ({
  config,
  db,
  clock,
  log,
}: {
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'mailSendIntervalMs'>;
  db: Db;
  clock: Clock;
  log: Logger;
}) => {
  const repo = createMailRepo(db);
  const smtp = config.smtpUrl ? createSmtpSend({ smtpUrl: config.smtpUrl, from: config.mailFrom }) : undefined;
  const delivery = smtp ? createMailDelivery({ repo, send: smtp.send, clock, log, intervalMs: config.mailSendIntervalMs }) : undefined;
  const mailer = createMailer({ smtp: smtp !== undefined, repo, clock, log, queued: () => delivery?.nudge() });
  return {
    repo,
    mailer,
    delivery,
    start: (): void => delivery?.start(),
    stop: async (): Promise<void> => {
      await delivery?.stop();
      smtp?.close();
    },
  };
};
