import type { Queryable } from '../../db/client';

export interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: string;
}

interface OutboxRow {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  created_at: Date;
}

export const createMailRepo = (db: Queryable) => ({
  insert: async (mail: { to: string; subject: string; text: string; html: string }): Promise<void> => {
    await db.query('INSERT INTO mail_outbox (to_address, subject, text_body, html_body) VALUES ($1, $2, $3, $4)', [
      mail.to,
      mail.subject,
      mail.text,
      mail.html,
    ]);
  },
  /** Newest first. */
  listFor: async (to: string, limit: number): Promise<OutboxMail[]> => {
    const rows = await db.query<OutboxRow>('SELECT * FROM mail_outbox WHERE lower(to_address) = lower($1) ORDER BY id DESC LIMIT $2', [
      to,
      limit,
    ]);
    return rows.map((r) => ({
      id: r.id,
      to: r.to_address,
      subject: r.subject,
      text: r.text_body,
      html: r.html_body,
      createdAt: r.created_at.toISOString(),
    }));
  },
});
export type MailRepo = ReturnType<typeof createMailRepo>;
