import { WebSocket, type ClientOptions } from 'ws';
import { ROLE } from '@app/domain';
import { createAccessTokens } from '../lib/jwt';
import type { TestApp } from './build-test-app';

/** Accounts, orders and message forms for the chat tests (ADR 0047, 0048). */
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
  const fixtures = {
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
  let parties = 0;
  return {
    ...fixtures,
    /** A customer's paid order assigned to a writer, with a support member; `tag` keeps one test file's emails apart. */
    orderWithParties: async (tag: string) => {
      parties += 1;
      const customer = await fixtures.customer(`${tag}.${parties}@example.com`);
      const writer = await fixtures.writer(`${tag}.writer.${parties}@example.com`);
      const support = await fixtures.support(`${tag}.support.${parties}@example.com`);
      return { customerId: customer.id, writerId: writer.id, supportId: support.id, orderId: await fixtures.order(customer.id, writer.id) };
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
    parts.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
    );
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
};

/** A real `ws` client that keeps every frame, for the socket tests and benches. */
export interface TestSocket {
  ws: WebSocket;
  frames: { event: number; data?: unknown }[];
  /** The next frame (from now on, or already received and not yet taken) matching `match`, within `ms`. */
  next(match: (frame: { event: number; data?: unknown }) => boolean, ms?: number): Promise<{ event: number; data?: unknown }>;
  /** True when no frame matching `match` arrives within `ms`. */
  none(match: (frame: { event: number; data?: unknown }) => boolean, ms?: number): Promise<boolean>;
  send(frame: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
  close(): void;
}

export const openSocket = async (url: string, options: ClientOptions = {}): Promise<TestSocket> => {
  const ws = new WebSocket(url, options);
  const frames: { event: number; data?: unknown }[] = [];
  const taken = new Set<number>();
  const waiters: (() => void)[] = [];
  ws.on('message', (raw) => {
    frames.push(JSON.parse(raw.toString()) as { event: number; data?: unknown });
    for (const wake of waiters.splice(0)) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve) => {
    ws.once('open', () => resolve());
    ws.once('close', () => resolve());
    ws.once('error', () => resolve());
  });
  const find = (match: (frame: { event: number; data?: unknown }) => boolean) => {
    const index = frames.findIndex((f, i) => !taken.has(i) && match(f));
    if (index < 0) return undefined;
    taken.add(index);
    return frames[index];
  };
  const next: TestSocket['next'] = (match, ms = 2000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no matching frame within ${ms} ms; got ${JSON.stringify(frames)}`)), ms);
      const look = () => {
        const found = find(match);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else waiters.push(look);
      };
      look();
    });
  return {
    ws,
    frames,
    next,
    none: async (match, ms = 300) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return find(match) === undefined;
    },
    send: (frame) => ws.send(JSON.stringify(frame)),
    closed,
    close: () => ws.close(),
  };
};
