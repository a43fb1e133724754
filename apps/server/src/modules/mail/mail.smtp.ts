import type { Transporter } from 'nodemailer';
import type { QueuedMail } from './mail.repo';
import type { SmtpSend } from './mail.service';

/**
 * ADR 0074: an SMTP server that does not answer fails an attempt within these (nodemailer's defaults are
 * 2 minutes to connect and 10 minutes of silence), well inside the claim's lease.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

/** The domain of MAIL_FROM's address, for Message-IDs. */
const domainOf = (from: string): string => /@([^>\s]+)/.exec(from)?.[1] ?? 'localhost';

/**
 * Sends over SMTP_URL with nodemailer, loaded and its transport made at the first mail (ADR 0058: not at
 * start). Each mail's Message-ID is fixed by its row, so in the rare case it is sent twice (accepted,
 * then the process died before marking it), receiving servers and clients see one message.
 */
export const createSmtpSend = ({ smtpUrl, from }: { smtpUrl: string; from: string }): { send: SmtpSend; close(): void } => {
  let transport: Promise<Transporter> | undefined;
  const transporter = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS })));
  const domain = domainOf(from);
  return {
    send: async (mail: QueuedMail) => {
      await (
        await transporter()
      ).sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        ...(mail.html ? { html: mail.html } : {}),
        ...(Object.keys(mail.headers).length > 0 ? { headers: mail.headers } : {}),
        ...(mail.attachments.length > 0
          ? {
              attachments: mail.attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                content: a.content,
                encoding: 'base64',
              })),
            }
          : {}),
        messageId: `<mail-${mail.id}.${mail.createdAt.getTime().toString(36)}@${domain}>`,
      });
    },
    close: () => void transport?.then((t) => t.close()).catch(() => undefined),
  };
};
