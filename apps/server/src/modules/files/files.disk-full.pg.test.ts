import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FILE_NOT_STORED_MESSAGE } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer, insertOrder } from '../../testing/factories';

/**
 * ADR 0073, a fault: the disk fills while an upload streams. FILES_DIR is a real 2 MB tmpfs (this test
 * mounts it, so it needs root, as CI has; it runs in `npm run test:pg`). The upload that does not fit is
 * answered 507 with a message, nothing of it stays (on disk or in the database), the order is intact,
 * the operator is told once in the log, and the server goes on serving, uploads included.
 */
const MB = 1024 * 1024;
let t: TestApp;
let filesDir: string;
let mounted = false;
const logLines: string[] = [];

beforeAll(async () => {
  filesDir = await mkdtemp(path.join(tmpdir(), 'disk-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', filesDir], { stdio: 'pipe' });
    mounted = true;
  } catch (error) {
    throw new Error(
      `this fault test mounts a 2 MB tmpfs as FILES_DIR and needs root (as CI runs it): ${(error as { stderr?: Buffer }).stderr?.toString().trim() ?? String(error)}`,
    );
  }
  t = await buildTestApp({
    env: { FILES_DIR: filesDir, LOG_LEVEL: 'warn' },
    logStream: { write: (line: string) => void logLines.push(line) },
  });
});
afterAll(async () => {
  await t?.close();
  if (mounted) execFileSync('umount', [filesDir]);
  await rm(filesDir, { recursive: true, force: true });
});

const BOUNDARY = '----disk-full-boundary';
/** A PDF of `size` bytes under the multipart field `field`, streamed in 64 kB pieces. */
const pdfForm = (field: string, size: number, fields: Record<string, string> = {}) => {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  async function* body(): AsyncGenerator<Buffer> {
    for (const [name, value] of Object.entries(fields)) {
      yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    }
    yield Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="thesis.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
    for (let left = size - 9; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
    yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  }
  return { payload: Readable.from(body()), headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } };
};
const onDisk = async (): Promise<string[]> =>
  (await readdir(filesDir, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => d.name)
    .sort();

describe('the disk fills while an upload streams', () => {
  it('answers 507 with a message, keeps nothing of the upload, leaves the order intact and goes on serving', async () => {
    const { id: customerId, token } = await insertCustomer(t, 'disk-full@example.com');
    const { id: orderId } = await insertOrder(t.db, { customerId, title: 'Thesis on a full disk' });
    const headers = { authorization: `Bearer ${token}` };
    const upload = (size: number) => {
      const form = pdfForm('file', size);
      return t.app.inject({
        method: 'POST',
        url: `/api/en/orders/${orderId}/customers/files`,
        headers: { ...headers, ...form.headers },
        payload: form.payload,
      });
    };
    const fileRows = async () =>
      t.db.query<{ id: number; size_bytes: number }>('SELECT id, size_bytes FROM order_files WHERE order_id = $1 ORDER BY id', [orderId]);

    expect((await upload(200 * 1024)).statusCode).toBe(200);
    const order = (await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}`, headers })).json<unknown>();
    const disk = await onDisk();
    const rows = await fileRows();
    expect(disk).toHaveLength(1);

    // 3 MB into what is left of 2 MB: the write fails with ENOSPC half-way.
    const full = await upload(3 * MB);
    expect(full.statusCode).toBe(507);
    expect(full.json()).toEqual({ message: FILE_NOT_STORED_MESSAGE });
    expect(await onDisk()).toEqual(disk);
    expect(await fileRows()).toEqual(rows);
    const after = await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}`, headers });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual(order);
    expect(logLines.filter((line) => line.includes('file storage is full'))).toHaveLength(1);

    // A chat attachment takes the same way in: refused alike, no message stored.
    const form = pdfForm('files', 3 * MB, { direction: '2', message: JSON.stringify({ body: 'the scan' }) });
    const message = await t.app.inject({
      method: 'POST',
      url: `/chat/api/customers/orders/${orderId}/messages`,
      headers: { ...headers, ...form.headers },
      payload: form.payload,
    });
    expect(message.statusCode).toBe(507);
    expect(message.json()).toEqual({ message: FILE_NOT_STORED_MESSAGE });
    const [messages] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM messages WHERE order_id = $1', [orderId]);
    expect(messages?.n).toBe(0);
    expect(await onDisk()).toEqual(disk);

    // The space the partial files held is free again: the server serves, and a file that fits is stored.
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await upload(200 * 1024)).statusCode).toBe(200);
    expect(await fileRows()).toHaveLength(rows.length + 1);
  }, 60_000);
});
