import type { Transporter } from 'nodemailer';
import type { Logger } from '../../lib/logger';
import type { MailRepo } from './mail.repo';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** CONTRACT "Identity": SMTP when SMTP_URL is set, otherwise the built-in outbox (the log names the mail only). */
export const createMailer = (opts: { smtpUrl: string | undefined; from: string; repo: MailRepo; log: Logger }): Mailer => {
  if (opts.smtpUrl) {
    const smtpUrl = opts.smtpUrl;
    // nodemailer is loaded, and the transport made, at the first mail (ADR 0058: not at start).
    let transport: Promise<Transporter> | undefined;
    const transporter = () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl)));
    return {
      kind: 'smtp',
      send: async (m) => {
        await (await transporter()).sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text, html: m.html });
      },
      close: () => void transport?.then((t) => t.close()).catch(() => undefined),
    };
  }
  return {
    kind: 'outbox',
    send: async (m) => {
      await opts.repo.insert({ to: m.to, subject: m.subject, text: m.text, html: m.html ?? '' });
      // CONTRACT "Identity": the log names each mail, never its links or tokens (ADR 0039).
      opts.log.info({ to: m.to, subject: m.subject }, 'mail to outbox');
    },
    close: () => undefined,
  };
};
