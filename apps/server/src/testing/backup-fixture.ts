import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { defaultOrderForm, ROLE, toOrderBody } from '@app/domain';
import type { BackupPlace } from '../backup/backup';
import type { Db } from '../db/client';
import { systemClock } from '../lib/clock';
import { createAccessTokens } from '../lib/jwt';
import { runOps } from '../ops';
import { messageForm } from './chat-fixtures';

/** ADR 0082: what the backup tests (embedded and PostgreSQL) store, back up, wipe and expect back. */

/** Every row of every table, in a stable order: what "everything is back" compares. */
export const everything = async (db: Db): Promise<Record<string, string[]>> => {
  const tables = await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
  const all: Record<string, string[]> = {};
  for (const { name } of tables) {
    const rows = await db.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${name}" t`);
    all[name] = rows.map((r) => r.row).sort();
  }
  return all;
};

export const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const BOUNDARY = '----backup-boundary';
const fileBody = (name: string, content: Buffer) =>
  Readable.from([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);

export interface Filled {
  token: string;
  orders: { id: number; uid: string }[];
  /** file id → SHA-256 of its bytes */
  uploaded: Map<number, string>;
}

/** Through the routes: a customer's three orders, two files each, a message with an attachment each, two paid through the sandbox. */
export const fillWithData = async (app: FastifyInstance, db: Db, jwtSecret: string): Promise<Filled> => {
  const orders: Filled['orders'] = [];
  const uploaded: Filled['uploaded'] = new Map();
  const [customer] = await db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id, first_name) VALUES ($1, 'kept@example.com', 'x', 1, 'Kept') RETURNING id`,
    [ROLE.customer],
  );
  const token = await createAccessTokens(jwtSecret, systemClock).sign({ userId: customer?.id ?? 0, role: ROLE.customer });
  const auth = { authorization: `Bearer ${token}` };
  for (let i = 0; i < 3; i++) {
    const created = await app.inject({
      method: 'POST',
      url: '/api/en/sites/categories/1/orders',
      headers: auth,
      payload: toOrderBody({ ...defaultOrderForm(1), subject: 4, title: `Backed-up order ${i}`, details: '' }, 1),
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = Number(created.json().id);
    const [row] = await db.query<{ uid: string }>('SELECT uid FROM orders WHERE id = $1', [id]);
    orders.push({ id, uid: row?.uid ?? '' });
    // A file of random bytes (a megabyte and a bit: several tar blocks, no compression) and a small one.
    for (const content of [
      Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(1024 * 1024 + 333)]),
      Buffer.from(`%PDF-1.7\norder ${i}\n%%EOF\n`),
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/en/orders/${id}/customers/files`,
        headers: { ...auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: fileBody(`brief-${i}.pdf`, content),
      });
      expect(res.statusCode, res.body).toBe(200);
      uploaded.set(Number(res.json().id), sha(content));
    }
    const form = messageForm({ direction: '1', message: JSON.stringify({ body: `Hello about order ${i}` }) }, [
      { name: `notes-${i}.txt`, content: Buffer.from(`attached to the message ${i}`) },
    ]);
    const sent = await app.inject({
      method: 'POST',
      url: `/chat/api/customers/orders/${id}/messages`,
      headers: { ...auth, ...form.headers },
      payload: form.payload,
    });
    expect(sent.statusCode, sent.body).toBe(200);
  }
  // Two of the three paid through the sandbox: payments, transactions, status history, loyalty points.
  for (const order of orders.slice(0, 2)) {
    const checkout = await app.inject({ method: 'GET', url: `/checkout/fondy/order/${order.uid}?hashDevice=dev-hash` });
    expect(checkout.statusCode).toBe(302);
    const pay = await app.inject({ method: 'POST', url: `${new URL(String(checkout.headers.location)).pathname}/pay` });
    expect(pay.statusCode, pay.body).toBe(303);
  }
  return { token, orders, uploaded };
};

/** `npm run ops -- <argv>` in process against `place` (ADR 0082): its exit code and what it printed. */
export const runBackupOps = async (argv: string[], place: BackupPlace): Promise<{ code: number; out: string; err: string }> => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOps(argv, {
    openDatabase: () => Promise.reject(new Error('not used')),
    readPassword: () => Promise.reject(new Error('not used')),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    place,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
};
