import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessageSchema, FILE_CONTENT_MISMATCH_MESSAGE, orderFileSchema } from '@app/domain';
import { loadConfig } from '../../config';
import { DOWNLOAD_TICKET_TTL_SECONDS } from '../../lib/download-tickets';
import { createS3FileStorage } from '../../lib/s3-file-storage';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { chatFixtures, messageForm } from '../../testing/chat-fixtures';
import { insertOrder } from '../../testing/factories';
import { startS3Server, type TestS3Server } from '../../testing/s3-server';
import { createFiles } from '.';

/**
 * ADR 0080: FILES_STORAGE=s3 against a real S3-compatible server (s3rver): every file kind goes to the
 * bucket, downloads keep their paths and rules and answer a 302 to a signed URL (5 minutes at most), the
 * web's download link (`?link=1`, a one-minute ticket for one path) works without the bearer header and
 * never reaches a log line, and the start stops when the bucket refuses.
 */
let s3: TestS3Server;
let t: TestApp;
let fx: ReturnType<typeof chatFixtures>;
let owner: { id: number; token: string };
let intruder: { id: number; token: string };
let writer: { id: number; token: string };
let support: { id: number; token: string };
let orderId: number;
const logLines: string[] = [];

beforeAll(async () => {
  s3 = await startS3Server();
  t = await buildTestApp({ env: { ...s3.env, LOG_LEVEL: 'info' }, logStream: { write: (line) => void logLines.push(line) } });
  fx = chatFixtures(t);
  owner = await fx.customer('s3.owner@example.com');
  intruder = await fx.customer('s3.intruder@example.com');
  writer = await fx.writer('s3.writer@example.com');
  support = await fx.support('s3.support@example.com');
  orderId = (await insertOrder(t.db, { customerId: owner.id, status: 1 })).id;
});
afterAll(async () => {
  await t.close();
  await s3.close();
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const BOUNDARY = '----s3-file-boundary';
const multipart = (name: string, content: AsyncIterable<Buffer> | Buffer[]): Readable =>
  Readable.from(
    (async function* () {
      yield Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      for await (const chunk of content) yield chunk;
      yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    })(),
  );
const upload = (url: string, token: string, name: string, content: AsyncIterable<Buffer> | Buffer[]) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...auth(token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: multipart(name, content),
  });
async function* pdfOf(bytes: number): AsyncGenerator<Buffer> {
  yield Buffer.from('%PDF-1.7\n');
  const chunk = Buffer.alloc(1024 * 1024, 0x41);
  for (let left = bytes - 9; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
}
const objectKeys = async (): Promise<string[]> => {
  const storage = await createS3FileStorage(s3.config);
  const keys = [];
  for await (const entry of storage.entries()) keys.push(entry.key);
  return keys.sort();
};
/** Follows a 302 to the store, as the browser does: the bytes and how the store names them. */
const fetchSigned = async (location: string | undefined) => {
  expect(location?.startsWith(`${s3.endpoint}/${s3.bucket}/`)).toBe(true);
  const url = new URL(location ?? '');
  expect(Number(url.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
  const answer = await fetch(url);
  return { status: answer.status, body: Buffer.from(await answer.arrayBuffer()), disposition: answer.headers.get('content-disposition') };
};

describe('FILES_STORAGE=s3: uploads and downloads keep their paths and rules', () => {
  it('stores a 20 MB order file in the bucket (multipart) and answers its download with a 302 to a signed URL', async () => {
    const res = await upload(`/api/en/orders/${orderId}/customers/files`, owner.token, 'Thesis draft.pdf', pdfOf(20 * 1024 * 1024));
    expect(res.statusCode).toBe(200);
    const file = orderFileSchema.parse(res.json());
    expect(file.size).toBe(20 * 1024 * 1024);
    const [row] = await t.db.query<{ storage_key: string }>('SELECT storage_key FROM order_files WHERE id = $1', [file.id]);
    expect(await objectKeys()).toContain(row?.storage_key);

    const download = await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${file.id}`, headers: auth(owner.token) });
    expect(download.statusCode).toBe(302);
    expect(download.headers['cache-control']).toBe('no-store');
    const signed = await fetchSigned(download.headers.location);
    expect(signed.status).toBe(200);
    expect(signed.body.length).toBe(20 * 1024 * 1024);
    expect(signed.body.subarray(0, 9).toString()).toBe('%PDF-1.7\n');
    expect(signed.disposition).toBe(`attachment; filename="Thesis draft.pdf"; filename*=UTF-8''Thesis%20draft.pdf`);

    // Staff's download of the same file: the same answer.
    const staff = await t.app.inject({ method: 'GET', url: `/api/staff/orders/${orderId}/files/${file.id}`, headers: auth(support.token) });
    expect(staff.statusCode).toBe(302);
    expect((await fetchSigned(staff.headers.location)).body.length).toBe(20 * 1024 * 1024);
  });

  it("answers 404 for another customer's file, and a writer not on the order, without a signed URL", async () => {
    const res = await upload(`/api/en/orders/${orderId}/customers/files`, owner.token, 'mine.pdf', pdfOf(1000));
    const { id } = orderFileSchema.parse(res.json());
    for (const [url, token] of [
      [`/api/en/orders/files/${id}`, intruder.token],
      [`/api/en/orders/files/${id}?link=1`, intruder.token],
      [`/api/staff/orders/${orderId}/files/${id}`, writer.token],
      [`/api/staff/orders/${orderId}/files/${id}?link=1`, writer.token],
    ] as const) {
      const answer = await t.app.inject({ method: 'GET', url, headers: auth(token) });
      expect(answer.statusCode, url).toBe(404);
      expect(answer.headers.location).toBeUndefined();
    }
  });

  it('keeps nothing in the bucket when an upload is refused (content not fitting its extension)', async () => {
    const before = await objectKeys();
    const res = await upload(`/api/en/orders/${orderId}/customers/files`, owner.token, 'fake.pdf', [Buffer.alloc(2 * 1024 * 1024, 0x89)]);
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(FILE_CONTENT_MISMATCH_MESSAGE);
    expect(await objectKeys()).toEqual(before);
  });

  it('stores chat attachments in the bucket; both sides open them through a signed URL, an intruder gets 404', async () => {
    const chatOrder = await fx.order(owner.id, writer.id);
    const form = messageForm({ direction: '2', message: '{"body":"see attached"}' }, [
      { name: 'notes.txt', content: Buffer.from('hello s3') },
    ]);
    const sent = await t.app.inject({
      method: 'POST',
      url: `/chat/api/customers/orders/${chatOrder}/messages`,
      headers: { ...auth(owner.token), ...form.headers },
      payload: form.payload,
    });
    expect(sent.statusCode).toBe(200);
    const fileId = chatMessageSchema.parse(sent.json()).files[0]?.id;
    for (const [side, token] of [
      ['customers', owner.token],
      ['staff', support.token],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/chat/api/${side}/orders/${chatOrder}/messages/files/${fileId}`,
        headers: auth(token),
      });
      expect(res.statusCode).toBe(302);
      const signed = await fetchSigned(res.headers.location);
      expect(signed.body.toString()).toBe('hello s3');
      expect(signed.disposition).toContain('filename="notes.txt"');
    }
    const peek = await t.app.inject({
      method: 'GET',
      url: `/chat/api/customers/orders/${chatOrder}/messages/files/${fileId}`,
      headers: auth(intruder.token),
    });
    expect(peek.statusCode).toBe(404);
  });
});

describe('ADR 0080: the download link (a one-minute ticket for one path)', () => {
  let fileId: number;
  let otherFileId: number;
  beforeAll(async () => {
    fileId = orderFileSchema.parse((await upload(`/api/en/orders/${orderId}/customers/files`, owner.token, 'a.pdf', pdfOf(500))).json()).id;
    otherFileId = orderFileSchema.parse(
      (await upload(`/api/en/orders/${orderId}/customers/files`, owner.token, 'b.pdf', pdfOf(700))).json(),
    ).id;
  });
  const linkOf = async (url: string, token = owner.token): Promise<string> => {
    const res = await t.app.inject({ method: 'GET', url: `${url}?link=1`, headers: auth(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    return res.json<{ url: string }>().url;
  };

  it('is the same path with a ticket, which the browser follows without the bearer header', async () => {
    const link = await linkOf(`/api/en/orders/files/${fileId}`);
    expect(link).toMatch(new RegExp(`^/api/en/orders/files/${fileId}\\?ticket=[\\w-]+\\.[\\w-]+$`));
    const res = await t.app.inject({ method: 'GET', url: link });
    expect(res.statusCode).toBe(302);
    expect((await fetchSigned(res.headers.location)).body.length).toBe(500);
    // Good for a minute, not once: a download manager may ask again (a retry, a resume).
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(302);
  });

  it("is good for its own path only: another file's, another route, a forged or an expired ticket are 401", async () => {
    const link = await linkOf(`/api/en/orders/files/${fileId}`);
    const ticket = new URL(link, 'http://x').searchParams.get('ticket') ?? '';
    for (const url of [
      `/api/en/orders/files/${otherFileId}?ticket=${ticket}`,
      `/api/en/customers/customer?ticket=${ticket}`,
      `/api/en/orders/files/${fileId}?ticket=${ticket.slice(0, -2)}xx`,
      `/api/en/orders/files/${fileId}?ticket=${ticket.split('.')[0]}`,
    ])
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    // Not a bearer token either.
    expect((await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${fileId}`, headers: auth(ticket) })).statusCode).toBe(401);
    t.clock.advance((DOWNLOAD_TICKET_TTL_SECONDS + 1) * 1000);
    expect((await t.app.inject({ method: 'GET', url: link })).statusCode).toBe(401);
  });

  it('keeps the access rules: a staff link for staff paths, a writer link only on an assigned order', async () => {
    const staffLink = await linkOf(`/api/staff/orders/${orderId}/files/${fileId}`, support.token);
    expect((await t.app.inject({ method: 'GET', url: staffLink })).statusCode).toBe(302);
    // A customer's ticket on the staff path (and a staff ticket made for the customer's path) is refused.
    const customerLink = await linkOf(`/api/en/orders/files/${fileId}`);
    const customerTicket = new URL(customerLink, 'http://x').searchParams.get('ticket');
    const res = await t.app.inject({ method: 'GET', url: `/api/staff/orders/${orderId}/files/${fileId}?ticket=${customerTicket}` });
    expect(res.statusCode).toBe(401);
  });

  it('never reaches a log line, and neither does the signed URL', async () => {
    const link = await linkOf(`/api/en/orders/files/${fileId}`);
    const res = await t.app.inject({ method: 'GET', url: link });
    const ticket = new URL(link, 'http://x').searchParams.get('ticket') ?? '';
    const signature = new URL(res.headers.location ?? '').searchParams.get('X-Amz-Signature') ?? '';
    const log = logLines.join('');
    expect(log).toContain('ticket=[redacted]');
    expect(log).not.toContain(ticket);
    expect(signature).not.toBe('');
    expect(log).not.toContain(signature);
  });
});

describe('ADR 0080: orphans in the bucket', () => {
  it('the sweep removes objects no row references once older than the grace period, and keeps recorded and young ones', async () => {
    const storage = await createS3FileStorage(s3.config);
    const recorded = orderFileSchema.parse(
      (await upload(`/api/en/orders/${orderId}/customers/files`, owner.token, 'kept.pdf', pdfOf(300))).json(),
    );
    const orphan = (await storage.put(Readable.from([Buffer.from('left by an instance killed before its row')]))).key;
    const files = createFiles({ db: t.db, config: t.config, clock: t.clock, log: t.app.log }, storage);
    expect(await files.sweepOrphans({ now: new Date() })).toBe(0);
    expect(await objectKeys()).toContain(orphan);
    const removed = await files.sweepOrphans({ now: new Date(Date.now() + 2 * 60 * 60 * 1000) });
    expect(removed).toBeGreaterThanOrEqual(1);
    const left = await objectKeys();
    expect(left).not.toContain(orphan);
    const [row] = await t.db.query<{ storage_key: string }>('SELECT storage_key FROM order_files WHERE id = $1', [recorded.id]);
    expect(left).toContain(row?.storage_key);
    const download = await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${recorded.id}`, headers: auth(owner.token) });
    expect((await fetchSigned(download.headers.location)).body.length).toBe(300);
  });
});

describe('ADR 0080: a bucket that refuses stops the start', () => {
  it('with a wrong key', async () => {
    await expect(buildTestApp({ env: { ...s3.env, S3_ACCESS_KEY_ID: 'AKIAWRONG', S3_SECRET_ACCESS_KEY: 'wrong-secret' } })).rejects.toThrow(
      `Invalid configuration: FILES_STORAGE=s3, but the bucket "files" at ${s3.endpoint} refused the access key (403): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, and that the key may use this bucket`,
    );
  });
  it('with a missing bucket', async () => {
    await expect(buildTestApp({ env: { ...s3.env, S3_BUCKET: 'missing-bucket' } })).rejects.toThrow(
      `Invalid configuration: FILES_STORAGE=s3, but the bucket "missing-bucket" at ${s3.endpoint} does not exist (404): create it, or correct S3_BUCKET`,
    );
  });
  it('without a bucket, or with half a key pair, before anything is asked', () => {
    expect(() => loadConfig({ FILES_STORAGE: 's3' })).toThrow('Invalid configuration: FILES_STORAGE=s3 needs S3_BUCKET');
    expect(() => loadConfig({ ...s3.env, S3_SECRET_ACCESS_KEY: '' })).toThrow(
      'Invalid configuration: FILES_STORAGE=s3 needs S3_SECRET_ACCESS_KEY as well',
    );
  });
});
