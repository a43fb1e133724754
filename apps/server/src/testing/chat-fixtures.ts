import { ROLE } from '@app/domain';
import { createAccessTokens } from '../lib/jwt';
import type { TestApp } from './build-test-app';

/** Accounts, orders and message forms for the chat tests (issue 10). */
export const chatFixtures = (t: Pick<TestApp, 'db' | 'config' | 'clock'>) => {
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  const user = async (role: number, email: string): Promise<{ id: number; token: string }> => {
    const [row] = await t.db.query<{ id: number }>(
      `INSERT INTO users (role, email, password_hash, status_id, first_name) VALUES ($1, $2, 'x', 1, 'Ann') RETURNING id`,
      [role, email],
    );
    if (!row) throw new Error(`could not insert ${email}`);
    return { id: row.id, token: await tokens.sign({ userId: row.id, role }) };
  };
  return {
    tokens,
    customer: (email: string) => user(ROLE.customer, email),
    writer: (email: string) => user(ROLE.writer, email),
    support: (email: string) => user(ROLE.support, email),
    /** A paid order of `customerId`, assigned to `writerId` (or none). */
    order: async (customerId: number, writerId: number | null = null): Promise<number> => {
      const [row] = await t.db.query<{ id: number }>(
        `INSERT INTO orders (uid, customer_id, site_category, work_type_id, level_id, title, pages, urgency_hours, status_id, writer_id,
           deadline, basic_price_cents, final_price_cents)
         VALUES (md5(random()::text), $1, 1, 1, 2, 'Chat essay', 3, 240, 3, $2, now() + interval '10 days', 2400, 2400) RETURNING id`,
        [customerId, writerId],
      );
      if (!row) throw new Error('no order');
      return row.id;
    },
  };
};

const BOUNDARY = '----chat-form-boundary';
/** A multipart message form: fields, and files as `{ name, content }` under the field `files`. */
export const messageForm = (
  fields: Record<string, string>,
  files: { name: string; content: Buffer }[] = [],
): { payload: Buffer; headers: Record<string, string> } => {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
};
