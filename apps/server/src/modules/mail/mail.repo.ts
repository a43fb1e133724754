import type { Queryable } from '../../db/client';

/** A file sent with a mail (a receipt's PDF), kept base64 in the queue until the mail is sent. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  /** base64 */
  content: string;
}

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  attachments: MailAttachment[];
  createdAt: string;
}

/** A queued SMTP mail the delivery job claimed (ADR 0074). */
export interface QueuedMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
  attachments: MailAttachment[];
  /** attempts so far, this one included */
  attempts: number;
  createdAt: Date;
}

interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: Record<string, string> | string | null;
  attachments: MailAttachment[] | string | null;
  created_at: Date;
  attempts: number;
}

const jsonOf = <T>(value: T | string | null, empty: T): T =>
  value === null ? empty : typeof value === 'string' ? (JSON.parse(value) as T) : value;

/** `outbox`: delivered to the dev outbox when stored; `smtp`: queued for the SMTP delivery job. */
export type MailTransport = 'outbox' | 'smtp';

const LAST_ERROR_MAX = 500;

/** The mail module's table, mail_outbox (ADR 0074: the durable queue of every mail). */
export const createMailRepo = (db: Queryable) => ({
  /**
   * Stores one mail: an outbox mail is delivered now (sent_at), an SMTP mail is due now. Inside the
   * caller's transaction when `db` is its `tx`, so the mail exists exactly when what it tells of does.
   */
  insert: async (mail: {
    to: string;
    subject: string;
    text: string;
    html: string;
    transport: MailTransport;
    now: Date;
    headers?: Record<string, string> | undefined;
    attachments?: MailAttachment[] | undefined;
  }): Promise<void> => {
    await db.query(
      `INSERT INTO mail_outbox (to_address, subject, text_body, html_body, transport, sent_at, next_attempt_at, headers, attachments)
       VALUES ($1, $2, $3, $4, $5::text, CASE WHEN $5::text = 'outbox' THEN $6::timestamptz END,
         CASE WHEN $5::text = 'smtp' THEN $6::timestamptz END, $7::jsonb, $8::jsonb)`,
      [
        mail.to,
        mail.subject,
        mail.text,
        mail.html,
        mail.transport,
        mail.now,
        JSON.stringify(mail.headers ?? {}),
        JSON.stringify(mail.attachments ?? []),
      ],
    );
  },

  /**
   * Claims the oldest SMTP mail due at `now` and moves its next attempt to `leaseUntil` before anyone
   * sends it: another instance skips it (SKIP LOCKED while the statement runs, then the new time), and
   * if this process dies before the answer, it is due again after the lease. Null when none is due.
   */
  claimDue: async ({ now, leaseUntil }: { now: Date; leaseUntil: Date }): Promise<QueuedMail | null> => {
    const [row] = await db.query<OutboxRow>(
      `UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = $2
        WHERE id = (
          SELECT id FROM mail_outbox
           WHERE sent_at IS NULL AND transport = 'smtp' AND next_attempt_at <= $1
           ORDER BY next_attempt_at, id
           LIMIT 1
           FOR UPDATE SKIP LOCKED)
        RETURNING id, to_address, subject, text_body, html_body, headers, attachments, attempts, created_at`,
      [now, leaseUntil],
    );
    if (!row) return null;
    return {
      id: Number(row.id),
      to: row.to_address,
      subject: row.subject,
      text: row.text_body,
      html: row.html_body,
      headers: jsonOf(row.headers, {}),
      attachments: jsonOf(row.attachments, []),
      attempts: row.attempts,
      createdAt: row.created_at,
    };
  },

  /**
   * The SMTP server accepted the mail: sent, once. Its bodies go (they carry sign-in links that must not
   * stay at rest); the address and subject stay as its record.
   */
  markSent: async (id: number, now: Date): Promise<void> => {
    await db.query(
      `UPDATE mail_outbox SET sent_at = $2, text_body = '', html_body = '', attachments = '[]'::jsonb, last_error = NULL WHERE id = $1 AND sent_at IS NULL`,
      [id, now],
    );
  },

  /** The attempt failed: the next one at `nextAt`, with the reason. */
  markFailed: async (id: number, { nextAt, reason }: { nextAt: Date; reason: string }): Promise<void> => {
    await db.query('UPDATE mail_outbox SET next_attempt_at = $2, last_error = $3 WHERE id = $1 AND sent_at IS NULL', [
      id,
      nextAt,
      reason.slice(0, LAST_ERROR_MAX),
    ]);
  },

  /** The dev outbox (CONTRACT "Identity"): mail delivered to the built-in outbox, newest first. */
  listFor: async (to: string, limit: number): Promise<OutboxMail[]> => {
    const rows = await db.query<OutboxRow>(
      `SELECT * FROM mail_outbox WHERE lower(to_address) = lower($1) AND transport = 'outbox' ORDER BY id DESC LIMIT $2`,
      [to, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      to: r.to_address,
      subject: r.subject,
      text: r.text_body,
      html: r.html_body,
      headers: jsonOf(r.headers, {}),
      attachments: jsonOf(r.attachments, []),
      createdAt: r.created_at.toISOString(),
    }));
  },
});
export type MailRepo = ReturnType<typeof createMailRepo>;
