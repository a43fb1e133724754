import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGE, fileQuotaExceededMessage, ORDER_STATUS } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { chatFixtures } from '../../testing/chat-fixtures';
import { insertOrder } from '../../testing/factories';

/**
 * ADR 0073: one storage quota and one upload rate for every upload path (order files, revision files,
 * chat attachments, staff deliveries). The quota is checked while each file streams (the message's
 * earlier attachments included) and again under the customer's lock in the transaction that records it.
 */
const QUOTA_MB = 1;
const MB = 1024 * 1024;
const RATE = 5;
let t: TestApp;
let filesDir: string;
let fx: ReturnType<typeof chatFixtures>;
let seq = 0;

beforeAll(async () => {
  filesDir = await mkdtemp(path.join(tmpdir(), 'upload-paths-'));
  t = await buildTestApp({ env: { FILES_DIR: filesDir, UPLOAD_QUOTA_MB: String(QUOTA_MB), UPLOAD_RATE_PER_HOUR: String(RATE) } });
  fx = chatFixtures(t);
});
afterAll(async () => {
  await t?.close();
  await rm(filesDir, { recursive: true, force: true });
});

const QUOTA_MESSAGE = fileQuotaExceededMessage(QUOTA_MB * MB);
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const customer = async () => {
  seq += 1;
  const c = await fx.customer(`upload-paths-${seq}@example.com`);
  return { ...c, orderId: (await insertOrder(t.db, { customerId: c.id })).id };
};

const BOUNDARY = '----upload-paths-boundary';
const CHUNK = Buffer.alloc(64 * 1024, 0x20);
/**
 * A multipart form streamed as a client sends it: text fields, then PDFs of the given sizes under
 * `field`. Each file's first 64 kB come at once; the rest waits for `gate` (a test holds two uploads
 * half-way to make them race).
 */
const form = (fields: Record<string, string>, field: string, sizes: number[], gate: Promise<void> = Promise.resolve()) => {
  async function* body(): AsyncGenerator<Buffer> {
    for (const [name, value] of Object.entries(fields)) {
      yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    }
    for (const [i, size] of sizes.entries()) {
      yield Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="part-${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
      );
      let left = size - 9;
      let first = true;
      while (left > 0) {
        if (!first) await gate;
        first = false;
        const piece = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
        left -= piece.length;
        yield piece;
      }
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${BOUNDARY}--\r\n`);
  }
  return { payload: Readable.from(body()), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
};

const orderUpload = (token: string, orderId: number, size: number, gate?: Promise<void>) => {
  const f = form({}, 'file', [size], gate);
  return t.app.inject({
    method: 'POST',
    url: `/api/en/orders/${orderId}/customers/files`,
    headers: { ...auth(token), ...f.headers },
    payload: f.payload,
  });
};
const chatSend = (token: string, orderId: number, sizes: number[], gate?: Promise<void>, side: 'customers' | 'staff' = 'customers') => {
  const f = form({ direction: '2', message: JSON.stringify({ body: 'see attached' }) }, 'files', sizes, gate);
  return t.app.inject({
    method: 'POST',
    url: `/chat/api/${side}/orders/${orderId}/messages`,
    headers: { ...auth(token), ...f.headers },
    payload: f.payload,
  });
};
const revisionUpload = (token: string, revisionId: number, size: number) => {
  const f = form({ id_revision: String(revisionId) }, 'file', [size]);
  return t.app.inject({
    method: 'POST',
    url: `/api/en/orders/revisions/${revisionId}/customers/files`,
    headers: { ...auth(token), ...f.headers },
    payload: f.payload,
  });
};
const delivery = (token: string, orderId: number, size: number) => {
  const f = form({}, 'file', [size]);
  return t.app.inject({
    method: 'POST',
    url: `/api/staff/orders/${orderId}/files`,
    headers: { ...auth(token), ...f.headers },
    payload: f.payload,
  });
};

/** Every file under FILES_DIR, partial ones included. */
const onDisk = async (): Promise<string[]> =>
  (await readdir(filesDir, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => d.name)
    .sort();
const storedBytesOf = async (customerId: number): Promise<number> => {
  const [row] = await t.db.query<{ bytes: string }>(
    `SELECT ((SELECT COALESCE(SUM(size_bytes), 0) FROM order_files WHERE customer_id = $1 AND source = 'customer')
      + (SELECT COALESCE(SUM(size_bytes), 0) FROM message_files WHERE uploaded_by = $1))::text AS bytes`,
    [customerId],
  );
  return Number(row?.bytes ?? 0);
};
const waitFor = async (what: string, ok: () => Promise<boolean>, ms = 10_000): Promise<void> => {
  const until = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};
const released = () => {
  let open = (): void => undefined;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { gate, open };
};

describe('one storage quota for every upload path', () => {
  it('refuses a chat message whose attachments pass the quota together (4.6 MB against 1 MB), storing nothing', async () => {
    const c = await customer();
    const before = await onDisk();
    // Five attachments of 0.92 MB: each fits what is left of the quota on its own.
    const res = await chatSend(
      c.token,
      c.orderId,
      Array.from({ length: 5 }, () => Math.round(0.92 * MB)),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: QUOTA_MESSAGE });
    const [messages] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE order_id = $1', [c.orderId]);
    expect(messages?.n).toBe(0);
    expect(await storedBytesOf(c.id)).toBe(0);
    expect(await onDisk()).toEqual(before);
    // The quota is still whole: a message under it goes through.
    expect((await chatSend(c.token, c.orderId, [Math.round(0.9 * MB)])).statusCode).toBe(200);
  }, 60_000);

  it('counts chat attachments against the quota of order files, and order files against chat', async () => {
    const c = await customer();
    expect((await chatSend(c.token, c.orderId, [Math.round(0.7 * MB)])).statusCode).toBe(200);
    const refused = await orderUpload(c.token, c.orderId, Math.round(0.4 * MB));
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({ message: QUOTA_MESSAGE });
    expect((await orderUpload(c.token, c.orderId, Math.round(0.2 * MB))).statusCode).toBe(200);
    expect((await chatSend(c.token, c.orderId, [Math.round(0.2 * MB)])).statusCode).toBe(413);
    expect(await storedBytesOf(c.id)).toBeLessThanOrEqual(QUOTA_MB * MB);
  }, 60_000);

  for (const [name, second] of [
    ['two chat messages', 'chat'],
    ['a chat message and an order file', 'order'],
  ] as const) {
    it(`${name} racing, each under the quota and together over it: one is refused, nothing of it kept`, async () => {
      const c = await customer();
      const before = await onDisk();
      const { gate, open } = released();
      const size = Math.round(0.6 * MB);
      const first = chatSend(c.token, c.orderId, [size], gate);
      const other = second === 'chat' ? chatSend(c.token, c.orderId, [size], gate) : orderUpload(c.token, c.orderId, size, gate);
      // Both streams are under way (each passed the check before streaming) before either goes on.
      await waitFor('both uploads streaming', async () => (await onDisk()).filter((f) => f.endsWith('.part')).length === 2);
      open();
      const answers = await Promise.all([first, other]);
      expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 413]);
      expect(answers.find((r) => r.statusCode === 413)?.json()).toEqual({ message: QUOTA_MESSAGE });
      expect(await storedBytesOf(c.id)).toBe(size);
      const added = (await onDisk()).filter((f) => !before.includes(f));
      expect(added).toHaveLength(1);
      expect(added[0]).not.toMatch(/\.part$/);
    }, 60_000);
  }

  it("does not charge a staff delivery or a staff attachment to the customer's quota", async () => {
    const c = await customer();
    const support = await fx.support(`upload-paths-support-${seq}@example.com`);
    expect((await orderUpload(c.token, c.orderId, Math.round(0.9 * MB))).statusCode).toBe(200);
    expect((await delivery(support.token, c.orderId, Math.round(0.9 * MB))).statusCode).toBe(200);
    expect((await chatSend(support.token, c.orderId, [Math.round(0.9 * MB)], undefined, 'staff')).statusCode).toBe(200);
    expect(await storedBytesOf(c.id)).toBe(Math.round(0.9 * MB));
  }, 60_000);
});

describe('one upload rate for every upload path (UPLOAD_RATE_PER_HOUR)', () => {
  it("counts order files, revision files and chat attachments on one counter of the customer's", async () => {
    const c = await customer();
    const completed = await insertOrder(t.db, {
      customerId: c.id,
      status: ORDER_STATUS.completed,
      completedAt: new Date(t.clock.now().getTime() - 24 * 3_600_000),
    });
    const revision = await t.app.inject({
      method: 'POST',
      url: `/api/en/orders/${completed.id}/revisions`,
      headers: auth(c.token),
      payload: { category: [1], describeProblem: 'Please rework the introduction.', revisionLevel: 1 },
    });
    expect(revision.statusCode).toBe(200);
    const revisionId = revision.json<{ id: number }>().id;

    expect((await orderUpload(c.token, c.orderId, 1024)).statusCode).toBe(200);
    expect((await revisionUpload(c.token, revisionId, 1024)).statusCode).toBe(200);
    // One message, two attachments: two uploads.
    expect((await chatSend(c.token, c.orderId, [1024, 1024])).statusCode).toBe(200);
    expect((await orderUpload(c.token, c.orderId, 1024)).statusCode).toBe(200);
    // Five uploads this hour: the sixth is refused on every path.
    for (const refused of [
      await chatSend(c.token, c.orderId, [1024]),
      await revisionUpload(c.token, revisionId, 1024),
      await orderUpload(c.token, c.orderId, 1024),
    ]) {
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toEqual({ message: AUTH_MESSAGE.tooManyRequests });
    }
    // A refused chat message stored nothing; another customer is not held back.
    const [messages] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE order_id = $1', [c.orderId]);
    expect(messages?.n).toBe(1);
    const other = await customer();
    expect((await chatSend(other.token, other.orderId, [1024])).statusCode).toBe(200);
  }, 60_000);

  it("counts a staff member's deliveries on their own counter, not the customer's", async () => {
    const c = await customer();
    const writer = await fx.writer(`upload-paths-writer-${seq}@example.com`);
    await t.db.query('UPDATE orders SET writer_id = $1, status_id = $2 WHERE id = $3', [writer.id, ORDER_STATUS.paid, c.orderId]);
    for (let i = 0; i < RATE; i += 1) expect((await delivery(writer.token, c.orderId, 1024)).statusCode).toBe(200);
    const refused = await delivery(writer.token, c.orderId, 1024);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await orderUpload(c.token, c.orderId, 1024)).statusCode).toBe(200);
  }, 60_000);
});
