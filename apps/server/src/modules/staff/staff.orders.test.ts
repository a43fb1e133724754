import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDetailSchema, orderFileListSchema, ROLE, staffOrderListSchema, staffOrderSchema, STAFF_MESSAGE } from '@app/domain';
import { createAccessTokens } from '../auth';
import { insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

let t: TestApp;
let filesDir: string;
let sign: (userId: number, role: number) => Promise<string>;
let customerId: number;
let customer: string;
let otherCustomer: string;
let writerId: number;
let writer: string;
let otherWriterId: number;
let otherWriter: string;
let supportId: number;
let support: string;

const addUser = async (role: number, email: string): Promise<number> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES ($1, $2, 'x', 1) RETURNING id`,
    [role, email],
  );
  if (!row) throw new Error('no user');
  return row.id;
};
const newOrder = async (o: { status?: number; writer?: number | null; customer?: number } = {}): Promise<number> => {
  const row = await insertOrder(t.db, {
    customerId: o.customer ?? customerId,
    status: o.status ?? 2,
    writerId: o.writer ?? null,
    title: 'Staff test order',
  });
  // Placed a minute before the test clock's now, so the changes the tests make come after it.
  await t.db.query('INSERT INTO order_status_history (order_id, status_id, changed_by, created_at) VALUES ($1, $2, $3, $4)', [
    row.id,
    o.status ?? 2,
    o.customer ?? customerId,
    new Date(t.clock.now().getTime() - 60_000),
  ]);
  return row.id;
};

beforeAll(async () => {
  filesDir = await mkdtemp(path.join(tmpdir(), 'staff-files-'));
  t = await buildTestApp({ env: { FILES_DIR: filesDir } });
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  sign = (userId, role) => tokens.sign({ userId, role });
  customerId = await addUser(ROLE.customer, 'staff.customer@example.com');
  customer = await sign(customerId, ROLE.customer);
  otherCustomer = await sign(await addUser(ROLE.customer, 'staff.other@example.com'), ROLE.customer);
  writerId = await addUser(ROLE.writer, 'staff.writer@example.com');
  writer = await sign(writerId, ROLE.writer);
  otherWriterId = await addUser(ROLE.writer, 'staff.writer2@example.com');
  otherWriter = await sign(otherWriterId, ROLE.writer);
  supportId = await addUser(ROLE.support, 'staff.support@example.com');
  support = await sign(supportId, ROLE.support);
});
afterAll(async () => {
  await t.close();
  await rm(filesDir, { recursive: true, force: true });
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const queue = (token: string, query = '') => t.app.inject({ method: 'GET', url: `/api/staff/orders${query}`, headers: auth(token) });
const setStatus = (token: string, orderId: number | string, status: unknown, reason?: string) =>
  t.app.inject({ method: 'PUT', url: `/api/staff/orders/${orderId}/status`, headers: auth(token), payload: { status, reason } });
const assign = (token: string, orderId: number | string, idWriter: unknown) =>
  t.app.inject({ method: 'PUT', url: `/api/staff/orders/${orderId}/writer`, headers: auth(token), payload: { idWriter } });
const BOUNDARY = '----staff-delivery-boundary';
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(2048, 0x41), Buffer.from('\n%%EOF\n')]);
const deliver = (token: string, orderId: number | string, name = 'final paper.pdf', content = PDF) =>
  t.app.inject({
    method: 'POST',
    url: `/api/staff/orders/${orderId}/files`,
    headers: { ...auth(token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  });
const detail = async (orderId: number, token = customer) =>
  orderDetailSchema.parse((await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}`, headers: auth(token) })).json());

describe('GET /api/staff/orders', () => {
  it('shows support every order, newest first, with the total', async () => {
    const newest = await newOrder({ status: 3 });
    const res = await queue(support, '?limit=5');
    expect(res.statusCode).toBe(200);
    const body = staffOrderListSchema.parse(res.json());
    const [all] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders');
    expect(body.total).toBe(all?.n);
    expect(body.orders).toHaveLength(5);
    expect(body.orders[0]).toMatchObject({ id: newest, status: 3, idCustomer: customerId, idWriter: null });
  });

  it('filters the queue by status and pages it', async () => {
    const body = staffOrderListSchema.parse((await queue(support, '?status=3&limit=1&page=1')).json());
    const [n] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE status_id = 3');
    expect(body.total).toBe(n?.n);
    expect(body.orders.every((o) => o.status === 3)).toBe(true);
    expect((await queue(support, '?status=4')).statusCode).toBe(422);
  });

  it('shows a writer only the orders assigned to them', async () => {
    const assigned = await newOrder({ writer: writerId });
    await newOrder({ writer: otherWriterId });
    const body = staffOrderListSchema.parse((await queue(writer)).json());
    expect(body.orders.length).toBe(body.total);
    expect(body.orders.every((o) => o.idWriter === writerId)).toBe(true);
    expect(body.orders.map((o) => o.id)).toContain(assigned);
  });
});

describe('GET /api/staff/orders/{id} (ADR 0059)', () => {
  const one = (token: string, orderId: number | string) =>
    t.app.inject({ method: 'GET', url: `/api/staff/orders/${orderId}`, headers: auth(token) });

  it('answers support any order and a writer an assigned one, as a queue row', async () => {
    const orderId = await newOrder({ status: 3, writer: writerId });
    const res = await one(support, orderId);
    expect(res.statusCode).toBe(200);
    expect(staffOrderSchema.parse(res.json())).toMatchObject({ id: orderId, status: 3, idCustomer: customerId, idWriter: writerId });
    expect((await one(writer, orderId)).statusCode).toBe(200);
  });

  it("answers 404 to another writer, to a customer (even the order's own), and for an unknown or malformed id", async () => {
    const orderId = await newOrder({ writer: writerId });
    expect((await one(otherWriter, orderId)).statusCode).toBe(404);
    expect((await one(customer, orderId)).statusCode).toBe(404);
    expect((await one(support, 987654321)).statusCode).toBe(404);
    expect((await one(support, 'abc')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/staff/orders/${orderId}` })).statusCode).toBe(401);
  });
});

describe('PUT /api/staff/orders/{id}/status', () => {
  // ADR 0071 changed these on purpose: support moves an order only along the transition table.
  it('moves the order and writes the change into its statusHistory, with support as who changed it and the reason', async () => {
    const orderId = await newOrder({ status: 2 });
    const before = (await detail(orderId)).statusHistory.length;
    const res = await setStatus(support, orderId, 9, 'Waiting for the customer to confirm the topic');
    expect(res.statusCode).toBe(200);
    expect(staffOrderSchema.parse(res.json())).toMatchObject({ id: orderId, status: 9, orderStatus: { id: 9, name: 'Hold' } });
    const after = await detail(orderId);
    expect(after.status).toBe(9);
    expect(after.statusHistory).toHaveLength(before + 1);
    expect(after.statusHistory.at(-1)).toMatchObject({ status: 9, by: 'support', reason: 'Waiting for the customer to confirm the topic' });
    const [last] = await t.db.query<{ changed_by: number; changed_by_role: number; via: string }>(
      'SELECT changed_by, changed_by_role, via FROM order_status_history WHERE order_id = $1 ORDER BY id DESC LIMIT 1',
      [orderId],
    );
    expect(last).toEqual({ changed_by: supportId, changed_by_role: ROLE.support, via: 'support' });
  });

  it('stamps completed_at when a delivered order is completed (5), and a second identical change is refused and writes nothing', async () => {
    const orderId = await newOrder({ status: 3, writer: writerId });
    expect((await deliver(writer, orderId)).statusCode).toBe(200);
    // ADR 0084: an uploaded file is not yet a delivery; the writer submits it.
    expect((await setStatus(support, orderId, 5)).statusCode).toBe(409);
    const submitted = await t.app.inject({
      method: 'POST',
      url: `/api/staff/orders/${orderId}/delivery`,
      headers: { authorization: `Bearer ${writer}` },
      payload: { message: 'The essay' },
    });
    expect(submitted.statusCode).toBe(200);
    expect((await setStatus(support, orderId, 5)).statusCode).toBe(200);
    const [row] = await t.db.query<{ completed_at: Date | null }>('SELECT completed_at FROM orders WHERE id = $1', [orderId]);
    expect(row?.completed_at?.getTime()).toBe(t.clock.now().getTime());
    const length = (await detail(orderId)).statusHistory.length;
    const again = await setStatus(support, orderId, 5);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'Cannot move order from Completed to Completed. Allowed now: Refunded.' });
    expect((await detail(orderId)).statusHistory).toHaveLength(length);
  });

  it('records a refund of the recorded payment when the order moves to refunded (7), once; 7 is final', async () => {
    const orderId = await newOrder({ status: 2 });
    await t.db.query(
      `INSERT INTO transactions (customer_id, order_id, payment_id, provider, type, amount_cents, currency) VALUES ($1, $2, NULL, 'paycore', 'payment', 2400, 'USD')`,
      [customerId, orderId],
    );
    expect((await setStatus(support, orderId, 7, 'The customer asked for it')).statusCode).toBe(200);
    expect((await setStatus(support, orderId, 3)).statusCode).toBe(409);
    expect((await setStatus(support, orderId, 7, 'Again')).statusCode).toBe(409);
    const refunds = await t.db.query<{ amount_cents: number; provider: string; customer_id: number }>(
      `SELECT amount_cents, provider, customer_id FROM transactions WHERE order_id = $1 AND type = 'refund'`,
      [orderId],
    );
    expect(refunds).toEqual([{ amount_cents: 2400, provider: 'paycore', customer_id: customerId }]);
  });

  it('refuses to refund an order that was never paid (409) and records nothing', async () => {
    const orderId = await newOrder({ status: 1 });
    const res = await setStatus(support, orderId, 7, 'Refund it');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Cannot move order from Unpaid to Refunded. Allowed now: Canceled.' });
    expect(await t.db.query(`SELECT 1 FROM transactions WHERE order_id = $1`, [orderId])).toEqual([]);
    // A paid order with no recorded money has nothing to refund either.
    const paid = await newOrder({ status: 2 });
    const none = await setStatus(support, paid, 7, 'Refund it');
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ message: STAFF_MESSAGE.nothingToRefund });
    expect((await detail(paid)).status).toBe(2);
  });

  it('refuses an unknown status (422) and answers 404 for an order that does not exist', async () => {
    const orderId = await newOrder();
    expect((await setStatus(support, orderId, 4)).statusCode).toBe(422);
    expect((await setStatus(support, 2_000_000_000, 3)).statusCode).toBe(404);
  });

  it('answers 403 to a writer, even on an order assigned to them, and changes nothing', async () => {
    const orderId = await newOrder({ status: 2, writer: writerId });
    const res = await setStatus(writer, orderId, 5);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: STAFF_MESSAGE.supportOnly });
    expect((await detail(orderId)).status).toBe(2);
  });
});

describe('PUT /api/staff/orders/{id}/writer', () => {
  it('assigns a writer, who then finds the order in their queue; the paid order moves to in progress (2 → 3)', async () => {
    const orderId = await newOrder();
    const res = await assign(support, orderId, otherWriterId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: orderId, idWriter: otherWriterId, status: 3 });
    expect((await detail(orderId)).statusHistory.at(-1)).toMatchObject({ status: 3, by: 'support' });
    expect((await detail(orderId)).idWriter).toBe(otherWriterId);
    expect(staffOrderListSchema.parse((await queue(otherWriter)).json()).orders.map((o) => o.id)).toContain(orderId);
  });

  it('refuses an id that is not a writer account (422)', async () => {
    const orderId = await newOrder();
    for (const id of [customerId, supportId, 2_000_000_000]) {
      const res = await assign(support, orderId, id);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ message: STAFF_MESSAGE.notAWriter });
    }
    expect((await detail(orderId)).idWriter).toBeNull();
  });

  it('answers 403 to a writer and 404 for an order that does not exist', async () => {
    const orderId = await newOrder({ writer: writerId });
    expect((await assign(writer, orderId, writerId)).statusCode).toBe(403);
    expect((await assign(support, 2_000_000_000, writerId)).statusCode).toBe(404);
  });
});

describe('POST /api/staff/orders/{id}/files', () => {
  it("delivers the assigned writer's file to the customer, who lists and downloads it", async () => {
    const orderId = await newOrder({ status: 3, writer: writerId });
    const res = await deliver(writer, orderId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: expect.any(Number), name: 'final paper.pdf', typeName: 'pdf', size: PDF.length, remote: true });

    const listed = await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}/writers/files`, headers: auth(customer) });
    expect(orderFileListSchema.parse(listed.json())).toEqual([res.json()]);
    const customerFiles = await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}/customers/files`, headers: auth(customer) });
    expect(customerFiles.json()).toEqual([]);
    expect((await detail(orderId)).fileForDownload).toEqual(res.json());

    const download = await t.app.inject({
      method: 'GET',
      url: `/api/en/orders/files/${res.json<{ id: number }>().id}`,
      headers: auth(customer),
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PDF)).toBe(true);
    expect(download.headers['content-disposition']).toContain('attachment');
  });

  it('lets support deliver to any order', async () => {
    const orderId = await newOrder({ status: 3 });
    expect((await deliver(support, orderId)).statusCode).toBe(200);
  });

  it('answers 404 to a writer not assigned to the order and stores nothing', async () => {
    const orderId = await newOrder({ status: 3, writer: writerId });
    expect((await deliver(otherWriter, orderId)).statusCode).toBe(404);
    expect((await deliver(otherWriter, 2_000_000_000)).statusCode).toBe(404);
    expect(await t.db.query('SELECT 1 FROM order_files WHERE order_id = $1', [orderId])).toEqual([]);
  });

  it("checks the file's content like a customer upload (422)", async () => {
    const orderId = await newOrder({ status: 3, writer: writerId });
    const res = await deliver(writer, orderId, 'paper.pdf', Buffer.from('this is not a pdf at all, only text'));
    expect(res.statusCode).toBe(422);
  });

  it('keeps the delivered file from other customers (404)', async () => {
    const orderId = await newOrder({ status: 3, writer: writerId });
    const file = (await deliver(writer, orderId)).json<{ id: number }>();
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}/writers/files`, headers: auth(otherCustomer) })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/en/orders/files/${file.id}`, headers: auth(otherCustomer) })).statusCode).toBe(
      404,
    );
  });
});

describe('staff routes and customer tokens', () => {
  it('answer 404 to a customer token on every staff route, and 401 without a token', async () => {
    const orderId = await newOrder();
    const calls = [
      () => queue(customer),
      () => setStatus(customer, orderId, 5),
      () => assign(customer, orderId, writerId),
      () => deliver(customer, orderId),
      () => t.app.inject({ method: 'GET', url: '/api/staff/me', headers: auth(customer) }),
    ];
    for (const call of calls) expect((await call()).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/orders' })).statusCode).toBe(401);
    expect((await detail(orderId)).status).toBe(2);
  });

  it('answer 404 to a writer on an order not assigned to them, before anything else', async () => {
    const orderId = await newOrder({ writer: otherWriterId });
    expect(staffOrderListSchema.parse((await queue(writer)).json()).orders.map((o) => o.id)).not.toContain(orderId);
    expect((await deliver(writer, orderId)).statusCode).toBe(404);
  });
});

describe("ADR 0071: a refunded order's writer files", () => {
  it('are no longer listed or downloadable by the customer (404), while support still lists and downloads them', async () => {
    const orderId = await newOrder({ status: 3, writer: writerId });
    await t.db.query(
      `INSERT INTO transactions (customer_id, order_id, payment_id, provider, type, amount_cents, currency) VALUES ($1, $2, NULL, 'fondy', 'payment', 2400, 'USD')`,
      [customerId, orderId],
    );
    const file = (await deliver(writer, orderId)).json<{ id: number }>();
    const download = (token: string) => t.app.inject({ method: 'GET', url: `/api/en/orders/files/${file.id}`, headers: auth(token) });
    expect((await download(customer)).statusCode).toBe(200);

    expect((await setStatus(support, orderId, 7, 'Refunded after a complaint')).statusCode).toBe(200);

    const listed = await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}/writers/files`, headers: auth(customer) });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toEqual([]);
    expect((await detail(orderId)).fileForDownload).toBeNull();
    const refused = await download(customer);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ message: 'Not found' });

    const staffList = await t.app.inject({ method: 'GET', url: `/api/staff/orders/${orderId}/files`, headers: auth(support) });
    expect(staffList.json()).toEqual({ files: [expect.objectContaining({ id: file.id, source: 'writer', name: 'final paper.pdf' })] });
    const staffDownload = await t.app.inject({
      method: 'GET',
      url: `/api/staff/orders/${orderId}/files/${file.id}`,
      headers: auth(support),
    });
    expect(staffDownload.statusCode).toBe(200);
    expect(staffDownload.rawPayload.equals(PDF)).toBe(true);
    expect(staffDownload.headers['content-disposition']).toContain('attachment');
  });

  it("staff's file routes keep the writer scope: another writer and a customer get 404, and a file of another order too", async () => {
    const orderId = await newOrder({ status: 3, writer: writerId });
    const other = await newOrder({ status: 3, writer: writerId });
    const file = (await deliver(writer, orderId)).json<{ id: number }>();
    const get = (token: string, url: string) => t.app.inject({ method: 'GET', url, headers: auth(token) });
    expect((await get(writer, `/api/staff/orders/${orderId}/files/${file.id}`)).statusCode).toBe(200);
    expect((await get(otherWriter, `/api/staff/orders/${orderId}/files/${file.id}`)).statusCode).toBe(404);
    expect((await get(otherWriter, `/api/staff/orders/${orderId}/files`)).statusCode).toBe(404);
    expect((await get(customer, `/api/staff/orders/${orderId}/files/${file.id}`)).statusCode).toBe(404);
    expect((await get(support, `/api/staff/orders/${other}/files/${file.id}`)).statusCode).toBe(404);
  });
});
