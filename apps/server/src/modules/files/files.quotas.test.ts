import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGE, defaultOrderForm, toOrderBody } from '@app/domain';
import { createDiskFileStorage } from '../../lib/file-storage';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer } from '../../testing/factories';
import { createFiles } from './index';

/**
 * ADR 0039, quotas and orphan files: a per-customer storage quota checked while the upload streams, an
 * upload rate and an order creation rate per customer, and a sweep of files no row points to.
 */
const QUOTA_MB = 1;
const MB = 1024 * 1024;
let t: TestApp;
let filesDir: string;
let seq = 0;

beforeAll(async () => {
  filesDir = await mkdtemp(path.join(tmpdir(), 'quota-files-'));
  t = await buildTestApp({
    env: { FILES_DIR: filesDir, UPLOAD_QUOTA_MB: String(QUOTA_MB), UPLOAD_RATE_PER_HOUR: '5', ORDER_CREATE_RATE_PER_HOUR: '3' },
  });
});
afterAll(async () => {
  await t.close();
  await rm(filesDir, { recursive: true, force: true });
});

const customer = async (): Promise<string> => (await insertCustomer(t, `quota-${Date.now().toString(36)}-${++seq}@example.com`)).token;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const createOrder = (token: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/en/sites/categories/1/orders',
    headers: auth(token),
    payload: toOrderBody({ ...defaultOrderForm(1), subject: 4, title: 'Quota test order', details: '' }, 1),
  });

const BOUNDARY = '----quota-boundary';
/** A PDF of `size` bytes as a multipart stream; `counter.pulled` is what the server read of it. */
const pdfUpload = (size: number) => {
  const counter = { pulled: 0 };
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  async function* body(): AsyncGenerator<Buffer> {
    const parts = [
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="notes.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      Buffer.from('%PDF-1.4\n'),
    ];
    for (const part of parts) {
      counter.pulled += part.length;
      yield part;
    }
    let left = size - 9;
    while (left > 0) {
      const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      counter.pulled += piece.length;
      yield piece;
    }
    yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  }
  return { stream: Readable.from(body()), counter };
};
const upload = (token: string, orderId: number, size: number) => {
  const { stream, counter } = pdfUpload(size);
  return {
    counter,
    response: t.app.inject({
      method: 'POST',
      url: `/api/en/orders/${orderId}/customers/files`,
      headers: { ...auth(token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: stream,
    }),
  };
};
const storedFiles = async (dir = filesDir): Promise<string[]> =>
  (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => d.name)
    .sort();

describe('storage quota per customer (UPLOAD_QUOTA_MB)', () => {
  it('refuses the upload that crosses the quota with 413 at the crossing byte, keeping nothing of it', async () => {
    const token = await customer();
    const orderId = (await createOrder(token)).json<{ id: number }>().id;
    expect((await upload(token, orderId, 700 * 1024).response).statusCode).toBe(200);

    const before = await storedFiles();
    const big = upload(token, orderId, 40 * MB);
    const refused = await big.response;
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      message: `Your files have reached the storage limit of ${QUOTA_MB}MB. Remove a file you no longer need to upload another.`,
    });
    // Streaming stopped near the quota, not at the end of the 40 MB.
    expect(big.counter.pulled).toBeLessThan(8 * MB);
    expect(await storedFiles()).toEqual(before);

    // What is left of the quota still takes a small file; the quota counts stored bytes, not attempts.
    expect((await upload(token, orderId, 200 * 1024).response).statusCode).toBe(200);
    expect((await upload(token, orderId, 200 * 1024).response).statusCode).toBe(413);
    const list = await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}/customers/files`, headers: auth(token) });
    expect(list.json<unknown[]>()).toHaveLength(2);
  }, 60_000);

  it("is per customer: one customer's files do not use another's quota", async () => {
    const first = await customer();
    const second = await customer();
    const firstOrder = (await createOrder(first)).json<{ id: number }>().id;
    const secondOrder = (await createOrder(second)).json<{ id: number }>().id;
    expect((await upload(first, firstOrder, 900 * 1024).response).statusCode).toBe(200);
    expect((await upload(second, secondOrder, 900 * 1024).response).statusCode).toBe(200);
  });
});

describe('rates per customer', () => {
  it('UPLOAD_RATE_PER_HOUR: the 6th upload of the hour answers 429 with Retry-After', async () => {
    const token = await customer();
    const orderId = (await createOrder(token)).json<{ id: number }>().id;
    for (let i = 0; i < 5; i += 1) expect((await upload(token, orderId, 1024).response).statusCode).toBe(200);
    const res = await upload(token, orderId, 1024).response;
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json()).toEqual({ message: AUTH_MESSAGE.tooManyRequests });
    // Another customer is not held back.
    const other = await customer();
    const otherOrder = (await createOrder(other)).json<{ id: number }>().id;
    expect((await upload(other, otherOrder, 1024).response).statusCode).toBe(200);
  });

  it('ORDER_CREATE_RATE_PER_HOUR: the 4th new order of the hour answers 429 with Retry-After', async () => {
    const token = await customer();
    for (let i = 0; i < 3; i += 1) expect((await createOrder(token)).statusCode).toBe(200);
    const res = await createOrder(token);
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json()).toEqual({ message: AUTH_MESSAGE.tooManyRequests });
    expect((await createOrder(await customer())).statusCode).toBe(200);
  });
});

describe('orphan upload files', () => {
  const TWO_HOURS_AGO = new Date(Date.now() - 2 * 60 * 60 * 1000);
  const age = async (dir: string, name: string): Promise<void> => {
    await utimes(path.join(dir, name.slice(0, 2), name), TWO_HOURS_AGO, TWO_HOURS_AGO);
  };
  const partialFile = async (dir: string, key: string): Promise<string> => {
    await mkdir(path.join(dir, key.slice(0, 2)), { recursive: true });
    await writeFile(path.join(dir, key.slice(0, 2), `${key}.part`), 'half an upload');
    return `${key}.part`;
  };

  it('sweeps files no row points to and partial files older than an hour; keeps recorded and recent ones', async () => {
    const token = await customer();
    const orderId = (await createOrder(token)).json<{ id: number }>().id;
    expect((await upload(token, orderId, 1024).response).statusCode).toBe(200);
    const storage = createDiskFileStorage(filesDir);
    const recorded = await storedFiles();
    for (const name of recorded) await age(filesDir, name);

    const oldOrphan = (await storage.put(Readable.from([Buffer.from('orphan')]))).key;
    await age(filesDir, oldOrphan);
    const freshOrphan = (await storage.put(Readable.from([Buffer.from('upload under way')]))).key;
    const oldPartial = await partialFile(filesDir, 'ab'.padEnd(32, '0'));
    await age(filesDir, oldPartial);

    const removed = await createFiles({ db: t.db, config: t.config, clock: t.clock, log: t.app.log }, storage).sweepOrphans({
      now: new Date(),
    });
    expect(removed).toBe(2);
    expect(await storedFiles()).toEqual([...recorded, freshOrphan].sort());
  });

  it('runs when the server starts', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sweep-at-start-'));
    const orphan = (await createDiskFileStorage(dir).put(Readable.from([Buffer.from('left by a crash')]))).key;
    await age(dir, orphan);
    const started = await buildTestApp({ env: { FILES_DIR: dir } });
    try {
      expect(await storedFiles(dir)).toEqual([]);
    } finally {
      await started.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
