import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  FILE_MESSAGE,
  ORDER_FILE_EXTENSIONS,
  ORDER_FILE_MAX_BYTES,
  orderDetailSchema,
  orderFileListSchema,
  REVISION_MESSAGE,
  revisionListSchema,
  revisionSchema,
  ROLE,
  STAFF_MESSAGE,
  staffRevisionListSchema,
} from '@app/domain';
import { createAccessTokens } from '../auth';
import { insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let t: TestApp;
let filesDir: string;
let meId: number;
let me: string;
let otherId: number;
let other: string;
let writerId: number;
let writer: string;
let otherWriter: string;
let support: string;

const addUser = async (role: number, email: string): Promise<number> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id, first_name) VALUES ($1, $2, 'x', 1, 'Ann') RETURNING id`,
    [role, email],
  );
  if (!row) throw new Error('no user');
  return row.id;
};

/** An order in `status`, completed `completedDaysAgo` days before the test clock's now (status 5 only). */
const newOrder = async (
  o: { status?: number; pages?: number; completedDaysAgo?: number; customer?: number; writer?: number | null } = {},
) => {
  const status = o.status ?? 5;
  const completedAt = status === 5 ? new Date(t.clock.now().getTime() - (o.completedDaysAgo ?? 1) * DAY) : null;
  const row = await insertOrder(t.db, {
    customerId: o.customer ?? meId,
    title: 'Revised essay',
    pages: o.pages ?? 5,
    status,
    writerId: o.writer === undefined ? writerId : o.writer,
    completedAt,
  });
  return row.id;
};

beforeAll(async () => {
  filesDir = await mkdtemp(path.join(tmpdir(), 'revision-files-'));
  t = await buildTestApp({ env: { FILES_DIR: filesDir } });
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  meId = await addUser(ROLE.customer, 'revisions.me@example.com');
  me = await tokens.sign({ userId: meId, role: ROLE.customer });
  otherId = await addUser(ROLE.customer, 'revisions.other@example.com');
  other = await tokens.sign({ userId: otherId, role: ROLE.customer });
  writerId = await addUser(ROLE.writer, 'revisions.writer@example.com');
  writer = await tokens.sign({ userId: writerId, role: ROLE.writer });
  otherWriter = await tokens.sign({ userId: await addUser(ROLE.writer, 'revisions.writer2@example.com'), role: ROLE.writer });
  support = await tokens.sign({ userId: await addUser(ROLE.support, 'revisions.support@example.com'), role: ROLE.support });
});
// Tokens are checked against the test clock: tests that move it put it back.
let start: Date;
beforeAll(() => {
  start = t.clock.now();
});
afterEach(() => {
  t.clock.set(start);
});
afterAll(async () => {
  await t.close();
  await rm(filesDir, { recursive: true, force: true });
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const request = (orderId: number | string, payload: Record<string, unknown>, token = me) =>
  t.app.inject({ method: 'POST', url: `/api/en/orders/${orderId}/revisions`, headers: auth(token), payload });
const valid = { category: [1, 3], describeProblem: 'Please <b>rework</b> the introduction.', revisionLevel: 2 };
const list = (orderId: number, token = me, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/en/orders/revisions?idOrder=${orderId}${query}`, headers: auth(token) });
const count = async (orderId: number): Promise<number> =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM revisions WHERE order_id = $1', [orderId]))[0]?.n ?? -1;
const created = async (orderId: number): Promise<number> => {
  const res = await request(orderId, valid);
  expect(res.statusCode).toBe(200);
  return res.json<{ id: number }>().id;
};

const BOUNDARY = '----revision-file-boundary';
const multipart = (name: string, content: Buffer): Readable =>
  Readable.from(
    (async function* () {
      yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="id_revision"\r\n\r\n0\r\n`);
      yield Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      yield content;
      yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    })(),
  );
const upload = (url: string, name: string, content: Buffer, token: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { ...auth(token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    payload: multipart(name, content),
  });
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');
const storedFiles = async (): Promise<string[]> =>
  (await readdir(filesDir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name);
const setStatus = (token: string, revisionId: number | string, status: unknown) =>
  t.app.inject({ method: 'PUT', url: `/api/staff/revisions/${revisionId}/status`, headers: auth(token), payload: { status } });

describe('SPEC §7 revision categories and levels', () => {
  it('answers without a token (CONTRACT), levels with 12/16/20/24 hours', async () => {
    const levels = await t.app.inject({ method: 'GET', url: '/api/en/orders/revisions/levels' });
    expect(levels.statusCode).toBe(200);
    expect(levels.json<{ hours: number }[]>().map((l) => l.hours)).toEqual([12, 16, 20, 24]);
    const categories = await t.app.inject({ method: 'GET', url: '/api/en/orders/revisions/categories' });
    expect(categories.statusCode).toBe(200);
    expect(categories.json<unknown[]>().length).toBeGreaterThan(0);
  });
});

describe('POST /api/en/orders/{id}/revisions', () => {
  it('creates a requested revision with ETA = now + level hours; list, detail and the order carry it', async () => {
    const orderId = await newOrder({ completedDaysAgo: 2 });
    const id = await created(orderId);
    const res = await t.app.inject({ method: 'GET', url: `/api/en/orders/revisions/${id}`, headers: auth(me) });
    expect(res.statusCode).toBe(200);
    const revision = revisionSchema.parse(res.json());
    expect(revision).toMatchObject({
      idOrder: orderId,
      revisionStatus: { id: 1, name: 'Requested' },
      description: 'Please rework the introduction.',
      revisionLevel: { id: 2 },
      categories: [{ id: 1 }, { id: 3 }],
    });
    expect(new Date(revision.deadline).getTime()).toBe(t.clock.now().getTime() + 16 * HOUR);
    expect(revision.statusHistory).toEqual([{ status: 1, date: t.clock.now().toISOString() }]);
    const page = revisionListSchema.parse((await list(orderId)).json());
    expect(page.total).toBe(1);
    expect(page.activeRevision).toEqual({ id });
    expect(page.window).toEqual({ until: new Date(t.clock.now().getTime() + 12 * DAY).toISOString(), open: true, daysLeft: 12 });
    const detail = orderDetailSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}`, headers: auth(me) })).json(),
    );
    expect(detail.activeRevision).toEqual({ id });
  });

  it.each([1, 2, 3, 7, 8, 9, 10, 11])('refuses an order in status %s (409) and stores nothing', async (status) => {
    const orderId = await newOrder({ status });
    const res = await request(orderId, valid);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: REVISION_MESSAGE.notCompleted });
    expect(await count(orderId)).toBe(0);
  });

  it('refuses after 14 days for a paper under 30 pages, and allows up to 30 days from 30 pages', async () => {
    const short = await newOrder({ pages: 29, completedDaysAgo: 14.01 });
    const res = await request(short, valid);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: REVISION_MESSAGE.windowClosed });
    expect(await count(short)).toBe(0);
    expect(revisionListSchema.parse((await list(short)).json()).window).toMatchObject({ open: false, daysLeft: 0 });
    expect((await request(await newOrder({ pages: 30, completedDaysAgo: 29.9 }), valid)).statusCode).toBe(200);
    expect((await request(await newOrder({ pages: 30, completedDaysAgo: 30.01 }), valid)).statusCode).toBe(409);
  });

  it('refuses a second revision while one is active (409), and allows one after it ended', async () => {
    const orderId = await newOrder();
    const first = await created(orderId);
    const res = await request(orderId, valid);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: REVISION_MESSAGE.activeRevision });
    expect(await count(orderId)).toBe(1);
    expect((await setStatus(support, first, 6)).statusCode).toBe(200);
    expect((await request(orderId, valid)).statusCode).toBe(200);
  });

  it('creates one revision of two concurrent requests (the database holds one active per order)', async () => {
    const orderId = await newOrder();
    const answers = await Promise.all([request(orderId, valid), request(orderId, valid), request(orderId, valid)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await count(orderId)).toBe(1);
    await expect(
      t.db.query(
        `INSERT INTO revisions (order_id, customer_id, status_id, level_id, category_ids, description, deadline, created_at, updated_at)
         VALUES ($1, $2, 12, 1, '{1}', 'x', now(), now(), now())`,
        [orderId, meId],
      ),
    ).rejects.toThrow();
  });

  it.each([
    [{ ...valid, category: [] }, 'category', REVISION_MESSAGE.categoryRequired],
    [{ ...valid, category: [1, 99] }, 'category', REVISION_MESSAGE.unknownCategory],
    [{ ...valid, revisionLevel: 5 }, 'revisionLevel', REVISION_MESSAGE.unknownLevel],
    [{ ...valid, revisionLevel: null }, 'revisionLevel', REVISION_MESSAGE.levelRequired],
    [{ ...valid, describeProblem: '   ' }, 'describeProblem', REVISION_MESSAGE.descriptionRequired],
    [{ ...valid, describeProblem: '<p> </p>' }, 'describeProblem', REVISION_MESSAGE.descriptionRequired],
  ])('refuses %j (422 on %s) and stores nothing', async (payload, field, message) => {
    const orderId = await newOrder();
    const res = await request(orderId, payload);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message, errors: { [field]: [message] } });
    expect(await count(orderId)).toBe(0);
  });

  it("answers 404 for another customer's order and stores nothing", async () => {
    const orderId = await newOrder({ customer: otherId });
    expect((await request(orderId, valid)).statusCode).toBe(404);
    expect((await request('abc', valid)).statusCode).toBe(404);
    expect(await count(orderId)).toBe(0);
    expect((await list(orderId)).statusCode).toBe(404);
  });

  it('needs a customer token', async () => {
    expect((await request(await newOrder(), valid, '')).statusCode).toBe(401);
  });
});

describe('GET /api/en/orders/revisions', () => {
  it('lists newest first, 10 a page', async () => {
    const orderId = await newOrder();
    const ids: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      ids.push(await created(orderId));
      t.clock.advance(60_000);
      expect((await setStatus(support, ids[i] ?? 0, 6)).statusCode).toBe(200);
    }
    const first = revisionListSchema.parse((await list(orderId)).json());
    expect(first.total).toBe(12);
    expect(first.revisions.map((r) => r.id)).toEqual(ids.slice().reverse().slice(0, 10));
    const second = revisionListSchema.parse((await list(orderId, me, '&page=2')).json());
    expect(second.revisions.map((r) => r.id)).toEqual([ids[1], ids[0]]);
  });

  it("answers 404 for another customer's revision and its files", async () => {
    const id = await created(await newOrder());
    for (const url of [
      `/api/en/orders/revisions/${id}`,
      `/api/en/orders/revisions/${id}/customers/files`,
      `/api/en/orders/revisions/${id}/writers/files`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url, headers: auth(other) })).statusCode).toBe(404);
    }
    expect((await upload(`/api/en/orders/revisions/${id}/customers/files`, 'a.pdf', PDF, other)).statusCode).toBe(404);
  });
});

describe('revision files', () => {
  it("stores the customer's file on the revision (not the order's list); the customer downloads it", async () => {
    const orderId = await newOrder();
    const id = await created(orderId);
    const res = await upload(`/api/en/orders/revisions/${id}/customers/files`, 'notes.pdf', PDF, me);
    expect(res.statusCode).toBe(200);
    const files = orderFileListSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/en/orders/revisions/${id}/customers/files`, headers: auth(me) })).json(),
    );
    expect(files.map((f) => f.name)).toEqual(['notes.pdf']);
    const orderFiles = (await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}/customers/files`, headers: auth(me) })).json();
    expect(orderFiles).toEqual([]);
    const download = await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${files[0]?.id}`, headers: auth(me) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PDF)).toBe(true);
    expect((await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${files[0]?.id}`, headers: auth(other) })).statusCode).toBe(404);
  });

  it('refuses a wrong type (SPEC text) and a file over 100 MB, leaving nothing on disk', async () => {
    const id = await created(await newOrder());
    const before = await storedFiles();
    const wrong = await upload(`/api/en/orders/revisions/${id}/customers/files`, 'run.exe', PDF, me);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({ message: FILE_MESSAGE.invalidFormat(ORDER_FILE_EXTENSIONS) });
    const big = await upload(`/api/en/orders/revisions/${id}/customers/files`, 'big.pdf', PDF, me, {
      'content-length': String(ORDER_FILE_MAX_BYTES * 2),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ message: FILE_MESSAGE.orderTooLarge });
    expect(await storedFiles()).toEqual(before);
    expect((await t.db.query('SELECT 1 FROM order_files WHERE revision_id = $1', [id])).length).toBe(0);
  });

  it('refuses a file on a revision that has ended (409)', async () => {
    const id = await created(await newOrder());
    expect((await setStatus(support, id, 4)).statusCode).toBe(200);
    const res = await upload(`/api/en/orders/revisions/${id}/customers/files`, 'late.pdf', PDF, me);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: REVISION_MESSAGE.notActive });
  });
});

describe('staff side of revisions (CONTRACT "Staff side")', () => {
  it('moves requested → in progress → verifying (writer) → completed (support), records each move, delivers a file and mails the customer', async () => {
    const orderId = await newOrder();
    const id = await created(orderId);
    t.clock.advance(60_000);
    expect((await setStatus(writer, id, 2)).statusCode).toBe(200);
    const delivered = await upload(`/api/staff/revisions/${id}/writers/files`, 'revised.pdf', PDF, writer);
    expect(delivered.statusCode).toBe(200);
    t.clock.advance(60_000);
    expect((await setStatus(writer, id, 12)).statusCode).toBe(200);
    const writerDone = await setStatus(writer, id, 5);
    expect(writerDone.statusCode).toBe(403);
    expect(writerDone.json()).toEqual({ message: STAFF_MESSAGE.supportOnly });
    t.clock.advance(60_000);
    const done = await setStatus(support, id, 5);
    expect(done.statusCode).toBe(200);
    const revision = revisionSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/en/orders/revisions/${id}`, headers: auth(me) })).json(),
    );
    expect(revision.revisionStatus).toEqual({ id: 5, name: 'Completed' });
    expect(revision.statusHistory.map((h) => h.status)).toEqual([1, 2, 12, 5]);
    expect(new Set(revision.statusHistory.map((h) => h.date)).size).toBe(4);
    const writerFiles = orderFileListSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/en/orders/revisions/${id}/writers/files`, headers: auth(me) })).json(),
    );
    expect(writerFiles.map((f) => f.name)).toEqual(['revised.pdf']);
    const download = await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${writerFiles[0]?.id}`, headers: auth(me) });
    expect(download.rawPayload.equals(PDF)).toBe(true);
    // ADR 0088: the moves the customer sees (in progress, completed) are notifications, mailed together by the job.
    await t.app.inject({
      method: 'POST',
      url: '/api/dev/notifications/run',
      payload: { at: new Date(t.clock.now().getTime() + 10 * 60_000).toISOString() },
    });
    const mails = (
      await t.db.query<{ subject: string; text: string }>('SELECT subject, text_body AS text FROM mail_outbox WHERE to_address = $1', [
        'revisions.me@example.com',
      ])
    ).filter((m) => m.text.includes(`?revision=${id}`));
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toBe(`Order #${orderId}: Revision updated`);
    expect(mails[0]?.text).toContain(`/orderinfo/${orderId}/revisions?revision=${id}`);
    expect(mails[0]?.text).toContain('is now Completed');
    const detail = orderDetailSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}`, headers: auth(me) })).json(),
    );
    expect(detail.activeRevision).toBeNull();
  });

  it('refuses a move the state machine does not allow (422) and an unknown status', async () => {
    const id = await created(await newOrder());
    const res = await setStatus(support, id, 5);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: REVISION_MESSAGE.moveNotAllowed });
    expect((await setStatus(support, id, 13)).statusCode).toBe(422);
    expect((await setStatus(support, id, 2)).statusCode).toBe(200);
    expect((await setStatus(support, id, 1)).statusCode).toBe(422);
  });

  it('refuses reopening a revision while the order has another active one (409)', async () => {
    const orderId = await newOrder();
    const first = await created(orderId);
    for (const s of [2, 12, 5]) expect((await setStatus(support, first, s)).statusCode).toBe(200);
    await created(orderId);
    const res = await setStatus(support, first, 3);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: REVISION_MESSAGE.activeRevision });
  });

  it("hides revisions of other writers' orders from a writer (404) and from customers (404)", async () => {
    const id = await created(await newOrder());
    expect((await setStatus(otherWriter, id, 2)).statusCode).toBe(404);
    expect((await setStatus(me, id, 2)).statusCode).toBe(404);
    expect((await upload(`/api/staff/revisions/${id}/writers/files`, 'x.pdf', PDF, otherWriter)).statusCode).toBe(404);
  });

  it("lists every revision of an order for support, and only the assigned orders' for a writer", async () => {
    const orderId = await newOrder({ writer: null });
    const id = await created(orderId);
    const bySupport = staffRevisionListSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/staff/revisions?idOrder=${orderId}`, headers: auth(support) })).json(),
    );
    expect(bySupport.revisions.map((r) => r.id)).toEqual([id]);
    expect(bySupport.revisions[0]).toMatchObject({ idCustomer: meId, idWriter: null });
    const byWriter = staffRevisionListSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/staff/revisions?idOrder=${orderId}`, headers: auth(writer) })).json(),
    );
    expect(byWriter.total).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/revisions', headers: auth(me) })).statusCode).toBe(404);
  });
});
