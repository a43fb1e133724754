import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  customerFileListSchema,
  defaultOrderForm,
  FILE_MESSAGE,
  ORDER_FILE_EXTENSIONS,
  ORDER_FILE_MAX_BYTES,
  orderFileSchema,
  toOrderBody,
} from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer, insertDelivery } from '../../testing/factories';

let t: TestApp;
let filesDir: string;
let me: string;
let other: string;
let meId: number;

beforeAll(async () => {
  filesDir = await mkdtemp(path.join(tmpdir(), 'order-files-'));
  t = await buildTestApp({ env: { FILES_DIR: filesDir } });
  const first = await insertCustomer(t, 'uploader@example.com');
  meId = first.id;
  me = first.token;
  other = (await insertCustomer(t, 'peeker@example.com')).token;
});
afterAll(async () => {
  await t.close();
  await rm(filesDir, { recursive: true, force: true });
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const newOrder = async (): Promise<number> => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/en/sites/categories/1/orders',
    headers: auth(me),
    payload: toOrderBody({ ...defaultOrderForm(1), subject: 4, title: 'Files test order', details: '' }, 1),
  });
  return res.json().id;
};

const BOUNDARY = '----order-file-boundary';
/** A multipart body streamed part by part: the file content is never one buffer. */
const multipartStream = (name: string, content: AsyncIterable<Buffer> | Buffer[], field = 'file'): Readable =>
  Readable.from(
    (async function* () {
      yield Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      for await (const chunk of content) yield chunk;
      yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    })(),
  );
const upload = (
  orderId: number | string,
  name: string,
  content: AsyncIterable<Buffer> | Buffer[],
  opts: { token?: string; field?: string } = {},
) =>
  t.app.inject({
    method: 'POST',
    url: `/api/en/orders/${orderId}/customers/files`,
    headers: { ...auth(opts.token ?? me), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: multipartStream(name, content, opts.field),
  });
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');
const storedFiles = async (): Promise<string[]> =>
  (await readdir(filesDir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name);

async function* zeros(total: number, head = Buffer.alloc(0)): AsyncGenerator<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024);
  yield head;
  let left = total - head.length;
  while (left > 0) {
    const n = Math.min(left, chunk.length);
    yield n === chunk.length ? chunk : chunk.subarray(0, n);
    left -= n;
  }
}

describe('POST /api/en/orders/{id}/customers/files', () => {
  it('stores the file and answers {id, name, typeName, size, remote}', async () => {
    const orderId = await newOrder();
    const res = await upload(orderId, 'Brief.PDF', [PDF]);
    expect(res.statusCode).toBe(200);
    expect(orderFileSchema.parse(res.json())).toMatchObject({ name: 'Brief.PDF', typeName: 'pdf', size: PDF.length, remote: true });
  });

  it('ADR 0068: stores the name without bidirectional or other format controls, in NFC', async () => {
    const orderId = await newOrder();
    const res = await upload(orderId, 'invoice\u202Efdp.exe.pdf', [PDF]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ name: 'invoicefdp.exe.pdf', typeName: 'pdf' });
    const nfc = await upload(orderId, '\u2067Re\u0301sume\u0301\u200B.pdf', [PDF]);
    expect(nfc.json()).toMatchObject({ name: 'R\u00e9sum\u00e9.pdf' });
    const rows = await t.db.query<{ name: string }>('SELECT name FROM order_files WHERE order_id = $1 ORDER BY id', [orderId]);
    expect(rows.map((r) => r.name)).toEqual(['invoicefdp.exe.pdf', 'R\u00e9sum\u00e9.pdf']);
  });

  it('streams a 20 MB upload to storage', async () => {
    const orderId = await newOrder();
    const size = 20 * 1024 * 1024;
    const res = await upload(orderId, 'scan.pdf', zeros(size, Buffer.from('%PDF-1.4\n')));
    expect(res.statusCode).toBe(200);
    expect(res.json().size).toBe(size);
  });

  it('refuses a file over 100MB with 413 and keeps nothing of it', async () => {
    const orderId = await newOrder();
    const before = await storedFiles();
    const res = await upload(orderId, 'huge.pdf', zeros(ORDER_FILE_MAX_BYTES + 1, Buffer.from('%PDF-1.4\n')));
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'Maximum file size is 100MB' });
    expect(await storedFiles()).toEqual(before);
    expect((await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}/customers/files`, headers: auth(me) })).json()).toEqual([]);
  }, 60_000);

  it('refuses a declared length over the limit before reading', async () => {
    const orderId = await newOrder();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/en/orders/${orderId}/customers/files`,
      headers: {
        ...auth(me),
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
        'content-length': String(ORDER_FILE_MAX_BYTES * 2),
      },
      payload: multipartStream('a.pdf', [PDF]),
    });
    expect(res.statusCode).toBe(413);
  });

  it('refuses an extension outside the list with the SPEC message', async () => {
    const orderId = await newOrder();
    const res = await upload(orderId, 'setup.exe', [Buffer.from('MZ')]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: FILE_MESSAGE.invalidFormat(ORDER_FILE_EXTENSIONS) });
  });

  it.each<[string, Buffer]>([
    ['renamed.pdf', Buffer.from('MZ\x90\x00 this is an executable')],
    ['fake.docx', Buffer.from('%PDF-1.4 not a zip')],
    ['binary.txt', Buffer.from([0x48, 0x69, 0x00, 0x01])],
    ['old.doc', Buffer.from('plain text, not OLE2')],
    ['empty.pdf', Buffer.alloc(0)],
  ])('refuses %s whose content does not fit its extension, storing nothing', async (name, content) => {
    const orderId = await newOrder();
    const before = await storedFiles();
    const res = await upload(orderId, name, [content]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: expect.any(String) });
    expect(await storedFiles()).toEqual(before);
  });

  it.each<[string, Buffer]>([
    ['essay.docx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00])],
    ['photo.jpg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10])],
    ['chart.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00])],
    ['notes.txt', Buffer.from('Plain notes, UTF-8: café')],
    ['legacy.xls', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0x00])],
    ['data.tar.gz', Buffer.from([0x1f, 0x8b, 0x08, 0x00])],
  ])('accepts %s with a fitting content', async (name, content) => {
    const orderId = await newOrder();
    expect((await upload(orderId, name, [content])).statusCode).toBe(200);
  });

  it("answers 404 for another customer's order and 422 without a `file` part", async () => {
    const orderId = await newOrder();
    expect((await upload(orderId, 'a.pdf', [PDF], { token: other })).statusCode).toBe(404);
    expect((await upload(999_999, 'a.pdf', [PDF])).statusCode).toBe(404);
    expect((await upload(orderId, 'a.pdf', [PDF], { field: 'attachment' })).statusCode).toBe(422);
  });
});

describe('file lists, download and delete', () => {
  it("lists the customer's files per order and across orders; writer files apart", async () => {
    const orderId = await newOrder();
    const uploaded = (await upload(orderId, 'list-me.pdf', [PDF])).json();
    await t.db.query(
      `INSERT INTO order_files (order_id, customer_id, source, name, type_name, size_bytes, storage_key) VALUES ($1, $2, 'writer', 'final.docx', 'docx', 10, 'aa00000000000000000000000000000a')`,
      [orderId, meId],
    );
    const mine = await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}/customers/files`, headers: auth(me) });
    expect(mine.json()).toEqual([uploaded]);
    const writers = await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}/writers/files`, headers: auth(me) });
    expect(writers.json()).toEqual([expect.objectContaining({ name: 'final.docx', typeName: 'docx', remote: true })]);
    const all = customerFileListSchema.parse(
      (await t.app.inject({ method: 'GET', url: '/api/en/orders/customers/files', headers: auth(me) })).json(),
    );
    expect(all).toContainEqual({ ...uploaded, orderId });
    expect(all.every((f) => f.name !== 'final.docx')).toBe(true);
    // The order shows the writer's latest file for download.
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}`, headers: auth(me) })).json().fileForDownload,
    ).toMatchObject({ name: 'final.docx' });
  });

  it("keeps every list, download and delete of another customer's files a 404", async () => {
    const orderId = await newOrder();
    const file = (await upload(orderId, 'private.pdf', [PDF])).json();
    for (const url of [
      `/api/en/orders/${orderId}/customers/files`,
      `/api/en/orders/${orderId}/writers/files`,
      `/api/en/orders/files/${file.id}`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url, headers: auth(other) })).statusCode).toBe(404);
    }
    expect((await t.app.inject({ method: 'DELETE', url: `/api/en/orders/files/${file.id}`, headers: auth(other) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/en/orders/customers/files', headers: auth(other) })).json()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${file.id}`, headers: auth(me) })).statusCode).toBe(200);
  });

  it('downloads the bytes as an attachment with an RFC 5987 name, nosniff and no-store', async () => {
    const orderId = await newOrder();
    const file = (await upload(orderId, 'Résumé final;1.pdf', [PDF])).json();
    const res = await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${file.id}`, headers: auth(me) });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(PDF);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="R_sum_ final;1.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20final%3B1.pdf`,
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-length']).toBe(String(PDF.length));
  });

  it('ADR 0080: the download link streams the same bytes, with their length, to a browser without the bearer header', async () => {
    const orderId = await newOrder();
    const file = (await upload(orderId, 'linked.pdf', [PDF])).json();
    const link = await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${file.id}?link=1`, headers: auth(me) });
    expect(link.statusCode).toBe(200);
    const { url } = link.json<{ url: string }>();
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(PDF);
    expect(res.headers['content-length']).toBe(String(PDF.length));
    expect(res.headers['content-disposition']).toContain('filename="linked.pdf"');
    // Another customer gets no link; without a ticket or a token, nothing.
    expect((await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${file.id}?link=1`, headers: auth(other) })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${file.id}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${file.id}?link=2`, headers: auth(me) })).statusCode).toBe(422);
  });

  it('deletes a file of an editable order (204), and refuses once the order is paid (409)', async () => {
    const orderId = await newOrder();
    const first = (await upload(orderId, 'one.pdf', [PDF])).json();
    const second = (await upload(orderId, 'two.pdf', [PDF])).json();
    const countBefore = (await storedFiles()).length;
    const res = await t.app.inject({ method: 'DELETE', url: `/api/en/orders/files/${first.id}`, headers: auth(me) });
    expect(res.statusCode).toBe(204);
    expect((await storedFiles()).length).toBe(countBefore - 1);
    expect((await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${first.id}`, headers: auth(me) })).statusCode).toBe(404);
    await t.db.query('UPDATE orders SET status_id = 2 WHERE id = $1', [orderId]);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/en/orders/files/${second.id}`, headers: auth(me) })).statusCode).toBe(409);
  });

  describe('ADR 0096: a customer removes their own wrong upload, nothing else', () => {
    const remove = (fileId: number | string, token = me) =>
      t.app.inject({ method: 'DELETE', url: `/api/en/orders/files/${fileId}`, headers: auth(token) });
    const stillThere = async (fileId: number): Promise<boolean> =>
      (await t.db.query('SELECT 1 FROM order_files WHERE id = $1', [fileId])).length === 1;

    it('removes it from the list and the storage; a second time is a 404', async () => {
      const orderId = await newOrder();
      const wrong = (await upload(orderId, 'wrong.pdf', [PDF])).json<{ id: number }>();
      const kept = (await upload(orderId, 'kept.pdf', [PDF])).json<{ id: number }>();
      const before = (await storedFiles()).length;
      expect((await remove(wrong.id)).statusCode).toBe(204);
      const list = await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}/customers/files`, headers: auth(me) });
      expect(list.json<{ id: number }[]>().map((f) => f.id)).toEqual([kept.id]);
      expect((await storedFiles()).length).toBe(before - 1);
      const twice = await remove(wrong.id);
      expect(twice.statusCode).toBe(404);
      expect(await stillThere(kept.id)).toBe(true);
    });

    it("answers 404 for another customer's file and for ids that are not files, and keeps the file", async () => {
      const orderId = await newOrder();
      const file = (await upload(orderId, 'mine.pdf', [PDF])).json<{ id: number }>();
      expect((await remove(file.id, other)).statusCode).toBe(404);
      expect((await remove(999_999)).statusCode).toBe(404);
      expect((await remove('abc')).statusCode).toBeGreaterThanOrEqual(400);
      expect((await remove('abc')).statusCode).toBeLessThan(500);
      expect(await stillThere(file.id)).toBe(true);
    });

    it("refuses the writer's file and a delivered one with a message, even on an order that may still be edited", async () => {
      const orderId = await newOrder();
      const writer = await t.db.query<{ id: number }>(
        "INSERT INTO users (role, email, password_hash, status_id) VALUES (3, 'files.writer@example.com', 'x', 1) RETURNING id",
      );
      const writerId = Number(writer[0]?.id);
      const loose = await insertDelivery(t.db, { orderId, customerId: meId, writerId, fileOnly: true });
      const delivered = await insertDelivery(t.db, { orderId, customerId: meId, writerId });
      for (const fileId of [loose.fileId, delivered.fileId]) {
        const res = await remove(fileId);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({ message: 'This file can no longer be removed' });
        expect(await stillThere(fileId)).toBe(true);
      }
      // A customer's own file that a delivery carries (never made by the app, refused all the same).
      const own = (await upload(orderId, 'carried.pdf', [PDF])).json<{ id: number }>();
      await t.db.query('INSERT INTO order_delivery_files (file_id, delivery_id) VALUES ($1, $2)', [own.id, delivered.deliveryId]);
      expect((await remove(own.id)).statusCode).toBe(409);
      expect(await stillThere(own.id)).toBe(true);
    });
  });
});
