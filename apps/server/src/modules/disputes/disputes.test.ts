import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CANCEL_MESSAGE,
  cancellationQuoteSchema,
  defaultOrderForm,
  DISPUTE_MESSAGE,
  disputeListSchema,
  disputeSchema,
  ORDER_STATUS,
  ROLE,
  ROUTE_RATE_LIMITS,
  staffDisputeListSchema,
  toOrderBody,
} from '@app/domain';
import { createAccessTokens } from '../auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer, insertDelivery } from '../../testing/factories';

/**
 * ADR 0087, CONTRACT "After payment": cancel with the money shown (the policy's quote per stage, the cancel
 * before work with one refund row and its credit note) and disputes (opened by the customer, resolved once by
 * support through the same use cases); next to each, the abuse.
 */
let t: TestApp;
let filesDir: string;
let sign: (userId: number, role: number) => Promise<string>;
type Who = { id: number; token: string };
let customer: Who;
let other: Who;
let writerId: number;
let secondWriterId: number;
let support: string;
let writerToken: string;
let seq = 0;

const addUser = async (role: number, email: string): Promise<number> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES ($1, $2, 'x', 1) RETURNING id`,
    [role, email],
  );
  if (!row) throw new Error('no user');
  return row.id;
};

beforeAll(async () => {
  filesDir = await mkdtemp(path.join(tmpdir(), 'disputes-files-'));
  t = await buildTestApp({ env: { FILES_DIR: filesDir, CANCEL_IN_PROGRESS_REFUND_PERCENT: '40' } });
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  sign = (userId, role) => tokens.sign({ userId, role });
  customer = await insertCustomer(t, 'disputes.customer@example.com');
  other = await insertCustomer(t, 'disputes.other@example.com');
  writerId = await addUser(ROLE.writer, 'disputes.writer@example.com');
  secondWriterId = await addUser(ROLE.writer, 'disputes.writer2@example.com');
  support = await sign(await addUser(ROLE.support, 'disputes.support@example.com'), ROLE.support);
  writerToken = await sign(writerId, ROLE.writer);
});
afterAll(async () => {
  await t.close();
  await rm(filesDir, { recursive: true, force: true });
});

const auth = (who: Who | string) => ({ authorization: `Bearer ${typeof who === 'string' ? who : who.token}` });
const createOrder = async (who: Who) => {
  seq += 1;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/en/sites/categories/1/orders',
    headers: auth(who),
    payload: toOrderBody({ ...defaultOrderForm(1), subject: 4, title: `Dispute me ${seq}`, details: 'Explain causes and mitigation.' }, 1),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ id: number; uid: string }>();
};
/** An order paid through the Fondy sandbox: its id and price in cents. */
const paidOrder = async (who: Who = customer) => {
  const { id, uid } = await createOrder(who);
  const res = await t.app.inject({ method: 'GET', url: `/checkout/fondy/order/${uid}?hashDevice=dev-hash` });
  const p = new URL(String(res.headers.location), 'http://x').pathname;
  const pay = await t.app.inject({ method: 'POST', url: `${p}/pay` });
  expect(pay.headers.location).toBe(`/orderinfo/${id}/details?payment=success`);
  const [row] = await t.db.query<{ final_price_cents: number }>('SELECT final_price_cents FROM orders WHERE id = $1', [id]);
  return { id, cents: Number(row?.final_price_cents ?? 0) };
};
const assign = async (orderId: number, idWriter = writerId) => {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/api/staff/orders/${orderId}/writer`,
    headers: auth(support),
    payload: { idWriter },
  });
  expect(res.statusCode, res.body).toBe(200);
};
const quote = (orderId: number, who: Who = customer) =>
  t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}/cancellation`, headers: auth(who) });
const cancel = (orderId: number, who: Who = customer, reason = 'Changed my mind') =>
  t.app.inject({ method: 'POST', url: `/api/en/orders/${orderId}/cancellation`, headers: auth(who), payload: { reason } });
const BOUNDARY = '----dispute-boundary';
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(512, 0x41), Buffer.from('\n%%EOF\n')]);
const disputeForm = (fields: Record<string, string>, files = 0): Buffer =>
  Buffer.concat([
    ...Object.entries(fields).map(([k, v]) => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)),
    ...Array.from({ length: files }, (_, i) =>
      Buffer.concat([
        Buffer.from(
          `--${BOUNDARY}\r\nContent-Disposition: form-data; name="files"; filename="proof-${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        PDF,
        Buffer.from('\r\n'),
      ]),
    ),
    Buffer.from(`--${BOUNDARY}--\r\n`),
  ]);
const openDispute = (orderId: number, fields: Record<string, string>, { who = customer, files = 0 } = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/en/orders/${orderId}/disputes`,
    headers: { ...auth(who), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: disputeForm(fields, files),
  });
const resolve = (disputeId: number, body: Record<string, unknown>, token = support) =>
  t.app.inject({ method: 'PUT', url: `/api/staff/disputes/${disputeId}`, headers: auth(token), payload: body });
const refunds = (orderId: number) =>
  t.db.query<{ id: number; amount_cents: number }>(
    `SELECT id, amount_cents FROM transactions WHERE order_id = $1 AND type = 'refund' ORDER BY id`,
    [orderId],
  );
const creditNotes = (orderId: number) =>
  t.db.query<{ kind: string }>(
    `SELECT d.kind FROM transaction_documents d JOIN transactions x ON x.id = d.transaction_id WHERE x.order_id = $1 AND x.type = 'refund'`,
    [orderId],
  );
const statusOf = async (orderId: number) =>
  Number((await t.db.query<{ status_id: number }>('SELECT status_id FROM orders WHERE id = $1', [orderId]))[0]?.status_id);
const events = async (orderId: number) =>
  (await t.db.query<{ type: string }>('SELECT type FROM order_events WHERE order_id = $1 ORDER BY id', [orderId])).map((e) => e.type);

describe('GET …/cancellation: what a cancel returns now, stage by stage', () => {
  it('unpaid: free; paid with no writer: everything; in progress: the policy share (40 %); delivered: a dispute', async () => {
    const unpaid = await createOrder(customer);
    expect(cancellationQuoteSchema.parse((await quote(unpaid.id)).json())).toMatchObject({
      stage: 'unpaid',
      allowed: true,
      refund: 0,
      destination: null,
    });

    const paid = await paidOrder();
    const before = cancellationQuoteSchema.parse((await quote(paid.id)).json());
    expect(before).toMatchObject({
      stage: 'before_work',
      allowed: true,
      refund: paid.cents / 100,
      action: 'cancel',
      inProgressRefundPercent: 40,
    });
    expect(before.destination).toContain('Fondy');

    await assign(paid.id);
    expect(cancellationQuoteSchema.parse((await quote(paid.id)).json())).toMatchObject({
      stage: 'in_progress',
      refund: Math.floor((paid.cents * 40) / 100) / 100,
      action: 'dispute',
    });

    await insertDelivery(t.db, { orderId: paid.id, customerId: customer.id, writerId });
    expect(cancellationQuoteSchema.parse((await quote(paid.id)).json())).toMatchObject({
      stage: 'delivered',
      allowed: false,
      refund: 0,
      reason: CANCEL_MESSAGE.delivered,
    });
  });

  it("another customer's order is 404, never its quote", async () => {
    const paid = await paidOrder();
    expect((await quote(paid.id, other)).statusCode).toBe(404);
    expect((await cancel(paid.id, other)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/en/orders/${paid.id}/disputes`, headers: auth(other) })).statusCode).toBe(404);
    expect((await openDispute(paid.id, { reason: 'quality', description: 'x' }, { who: other })).statusCode).toBe(404);
    expect(await statusOf(paid.id)).toBe(ORDER_STATUS.paid);
  });
});

describe('POST …/cancellation before work: 8, one refund row with its credit note, once', () => {
  it('an unpaid order cancels free and writes no money', async () => {
    const unpaid = await createOrder(customer);
    const res = await cancel(unpaid.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ canceled: true, refund: 0, dispute: null });
    expect(await statusOf(unpaid.id)).toBe(ORDER_STATUS.canceled);
    expect(await refunds(unpaid.id)).toEqual([]);
  });

  it('a paid order: refunded in full through the one refund use case, status 8 with the reason, on the timeline', async () => {
    const paid = await paidOrder();
    const res = await cancel(paid.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ canceled: true, refund: paid.cents / 100, dispute: null });
    expect(await statusOf(paid.id)).toBe(ORDER_STATUS.canceled);
    expect((await refunds(paid.id)).map((r) => Number(r.amount_cents))).toEqual([paid.cents]);
    expect((await creditNotes(paid.id)).map((d) => d.kind)).toEqual(['credit_note']);
    const [history] = await t.db.query<{ via: string; reason: string }>(
      'SELECT via, reason FROM order_status_history WHERE order_id = $1 AND status_id = 8',
      [paid.id],
    );
    expect(history).toEqual({ via: 'cancellation', reason: 'Canceled by the customer: Changed my mind' });
    expect(await events(paid.id)).toContain('canceled');
  });

  it('cancelling again, or an order already refunded, is 409 and writes nothing more', async () => {
    const paid = await paidOrder();
    expect((await cancel(paid.id)).statusCode).toBe(200);
    const again = await cancel(paid.id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: CANCEL_MESSAGE.alreadyCanceled });

    const refunded = await paidOrder();
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/staff/orders/${refunded.id}/status`,
          headers: auth(support),
          payload: { status: 7, reason: 'Asked' },
        })
      ).statusCode,
    ).toBe(200);
    const late = await cancel(refunded.id);
    expect(late.statusCode).toBe(409);
    expect(late.json()).toEqual({ message: CANCEL_MESSAGE.alreadyRefunded });
    expect(await refunds(refunded.id)).toHaveLength(1);
    expect(await refunds(paid.id)).toHaveLength(1);
  });

  it('two cancels racing: one cancels, the other is 409; one refund row', async () => {
    const paid = await paidOrder();
    const answers = await Promise.all([cancel(paid.id), cancel(paid.id), cancel(paid.id)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await refunds(paid.id)).toHaveLength(1);
    expect(await statusOf(paid.id)).toBe(ORDER_STATUS.canceled);
  });

  it('in progress: the cancel opens a dispute asking for the policy share; the order stays as it is', async () => {
    const paid = await paidOrder();
    await assign(paid.id);
    const res = await cancel(paid.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ canceled: boolean; dispute: unknown }>();
    expect(body.canceled).toBe(false);
    expect(disputeSchema.parse(body.dispute)).toMatchObject({
      reason: 'cancel_request',
      status: 'open',
      requestedRefund: Math.floor((paid.cents * 40) / 100) / 100,
      description: 'Changed my mind',
    });
    expect(await statusOf(paid.id)).toBe(ORDER_STATUS.inProgress);
    expect(await refunds(paid.id)).toEqual([]);
  });

  it('an oversized reason is 422 before any work', async () => {
    const paid = await paidOrder();
    expect((await cancel(paid.id, customer, 'x'.repeat(4001))).statusCode).toBe(422);
    expect(await statusOf(paid.id)).toBe(ORDER_STATUS.paid);
  });
});

describe('disputes: opened by the customer, resolved once by support', () => {
  it('opens with a reason from the list, a description and files through the one upload path', async () => {
    const paid = await paidOrder();
    await assign(paid.id);
    const res = await openDispute(paid.id, { reason: 'quality', description: '<b>The sources</b> are missing.' }, { files: 2 });
    expect(res.statusCode, res.body).toBe(200);
    const dispute = disputeSchema.parse(res.json());
    expect(dispute).toMatchObject({ status: 'open', reason: 'quality', description: 'The sources are missing.', resolution: null });
    expect(new Date(dispute.answerBy).getTime() - t.clock.now().getTime()).toBe(48 * 3_600_000);
    expect(dispute.files.map((f) => f.name)).toEqual(['proof-0.pdf', 'proof-1.pdf']);
    // The files are the customer's order files (the one upload path: its rows, its quota).
    const [count] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM order_files WHERE order_id = $1 AND source = 'customer'`,
      [paid.id],
    );
    expect(Number(count?.n)).toBe(2);
    const list = disputeListSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/en/orders/${paid.id}/disputes`, headers: auth(customer) })).json(),
    );
    expect(list.disputes.map((d) => d.id)).toEqual([dispute.id]);
    expect(await events(paid.id)).toContain('dispute_opened');
    // One open at a time.
    const second = await openDispute(paid.id, { reason: 'late', description: 'Also late.' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ message: DISPUTE_MESSAGE.alreadyOpen });
  });

  it('refuses a reason outside the list, a missing or oversized description, too many files, an unpaid order', async () => {
    const paid = await paidOrder();
    const bad = await openDispute(paid.id, { reason: 'refund_now', description: 'x' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ errors: { reason: [DISPUTE_MESSAGE.reasonInvalid] } });
    expect((await openDispute(paid.id, { reason: 'quality', description: '  ' })).json()).toMatchObject({
      errors: { description: [DISPUTE_MESSAGE.descriptionRequired] },
    });
    const huge = await openDispute(paid.id, { reason: 'quality', description: 'y'.repeat(5001) });
    expect(huge.statusCode).toBe(422);
    expect(huge.json()).toMatchObject({ errors: { description: [DISPUTE_MESSAGE.descriptionTooLong] } });
    const hugeRaw = await openDispute(paid.id, { reason: 'quality', description: 'y'.repeat(200_000) });
    expect(hugeRaw.statusCode).toBe(422);
    const many = await openDispute(paid.id, { reason: 'quality', description: 'Too many' }, { files: 6 });
    expect(many.statusCode).toBe(422);
    expect((await t.db.query('SELECT 1 FROM order_disputes WHERE order_id = $1', [paid.id])).length).toBe(0);

    const unpaid = await createOrder(customer);
    const notPaid = await openDispute(unpaid.id, { reason: 'quality', description: 'Bad' });
    expect(notPaid.statusCode).toBe(409);
    expect(notPaid.json()).toEqual({ message: DISPUTE_MESSAGE.notPaid });
  });

  it('a partial refund: one refund row with its credit note, the status stays, on the timeline; resolving twice is 409', async () => {
    const paid = await paidOrder();
    await assign(paid.id);
    await insertDelivery(t.db, { orderId: paid.id, customerId: customer.id, writerId });
    const dispute = disputeSchema.parse((await openDispute(paid.id, { reason: 'instructions', description: 'Wrong style.' })).json());

    // A writer may not resolve; over what was paid is refused with the limit; nothing moved.
    expect((await resolve(dispute.id, { outcome: 'no_action', message: 'x' }, writerToken)).statusCode).toBe(403);
    const over = await resolve(dispute.id, { outcome: 'partial_refund', amount: paid.cents / 100 + 0.01, message: 'Sorry' });
    expect(over.statusCode).toBe(422);
    expect(over.json<{ message: string }>().message).toContain(`at most $${(paid.cents / 100).toFixed(2)}`);
    expect((await resolve(dispute.id, { outcome: 'partial_refund', amount: 1.234, message: 'Sorry' })).statusCode).toBe(422);
    expect(await refunds(paid.id)).toEqual([]);

    const res = await resolve(dispute.id, { outcome: 'partial_refund', amount: 5, message: 'We refund part of it.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(disputeSchema.parse(res.json()).resolution).toMatchObject({
      outcome: 'partial_refund',
      amount: 5,
      message: 'We refund part of it.',
    });
    expect((await refunds(paid.id)).map((r) => Number(r.amount_cents))).toEqual([500]);
    expect((await creditNotes(paid.id)).map((d) => d.kind)).toEqual(['credit_note']);
    expect(await statusOf(paid.id)).toBe(ORDER_STATUS.inProgress);
    expect(await events(paid.id)).toContain('dispute_resolved');
    // ADR 0090: support's outcome is in the audit log once, with the amount.
    const audit = await t.db.query<{ action: string; after: { refunded: number } }>(
      "SELECT action, after FROM audit_log WHERE order_id = $1 AND action = 'dispute.resolve'",
      [paid.id],
    );
    expect(audit.map((a) => a.after.refunded)).toEqual([5]);

    const twice = await resolve(dispute.id, { outcome: 'partial_refund', amount: 5, message: 'Again' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({ message: DISPUTE_MESSAGE.alreadyResolved });
    expect(await refunds(paid.id)).toHaveLength(1);

    // The customer reads the outcome.
    const list = disputeListSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/en/orders/${paid.id}/disputes`, headers: auth(customer) })).json(),
    );
    expect(list.disputes[0]?.resolution?.amount).toBe(5);
  });

  it('two resolutions racing: one wins, one refund row', async () => {
    const paid = await paidOrder();
    const dispute = disputeSchema.parse((await openDispute(paid.id, { reason: 'late', description: 'Late.' })).json());
    const answers = await Promise.all([
      resolve(dispute.id, { outcome: 'partial_refund', amount: 3, message: 'A' }),
      resolve(dispute.id, { outcome: 'partial_refund', amount: 4, message: 'B' }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(await refunds(paid.id)).toHaveLength(1);
  });

  it('a full refund moves the order to 7 through the refund use case', async () => {
    const paid = await paidOrder();
    await assign(paid.id);
    const dispute = disputeSchema.parse((await openDispute(paid.id, { reason: 'communication', description: 'No answer.' })).json());
    const res = await resolve(dispute.id, { outcome: 'full_refund', message: 'Refunded in full.' });
    expect(res.statusCode, res.body).toBe(200);
    expect(disputeSchema.parse(res.json()).resolution?.amount).toBe(paid.cents / 100);
    expect(await statusOf(paid.id)).toBe(ORDER_STATUS.refunded);
    expect((await refunds(paid.id)).map((r) => Number(r.amount_cents))).toEqual([paid.cents]);
    // Closed now: no new dispute, no cancel.
    expect((await openDispute(paid.id, { reason: 'other', description: 'More' })).statusCode).toBe(409);
    expect((await cancel(paid.id)).statusCode).toBe(409);
  });

  it('extend moves the deadline through the delivery module; reassign through the assignment; no action changes nothing', async () => {
    const paid = await paidOrder();
    await assign(paid.id);
    const [before] = await t.db.query<{ deadline: Date }>('SELECT deadline FROM orders WHERE id = $1', [paid.id]);
    const later = new Date(new Date(String(before?.deadline)).getTime() + 2 * 24 * 3_600_000);
    const first = disputeSchema.parse((await openDispute(paid.id, { reason: 'late', description: 'Needs time.' })).json());
    expect((await resolve(first.id, { outcome: 'extend', message: 'x' })).statusCode).toBe(422);
    const earlier = await resolve(first.id, { outcome: 'extend', deadline: new Date(0).toISOString(), message: 'x' });
    expect(earlier.statusCode).toBe(422);
    const extended = await resolve(first.id, { outcome: 'extend', deadline: later.toISOString(), message: 'Two more days.' });
    expect(extended.statusCode, extended.body).toBe(200);
    const [after] = await t.db.query<{ deadline: Date }>('SELECT deadline FROM orders WHERE id = $1', [paid.id]);
    expect(new Date(String(after?.deadline)).toISOString()).toBe(later.toISOString());
    expect(await events(paid.id)).toContain('deadline_extended');

    const second = disputeSchema.parse((await openDispute(paid.id, { reason: 'quality', description: 'Other writer please.' })).json());
    expect((await resolve(second.id, { outcome: 'reassign', idWriter: customer.id, message: 'x' })).statusCode).toBe(422);
    expect((await resolve(second.id, { outcome: 'reassign', idWriter: secondWriterId, message: 'A new writer.' })).statusCode).toBe(200);
    const [row] = await t.db.query<{ writer_id: number }>('SELECT writer_id FROM orders WHERE id = $1', [paid.id]);
    expect(Number(row?.writer_id)).toBe(secondWriterId);

    const third = disputeSchema.parse((await openDispute(paid.id, { reason: 'other', description: 'Hm.' })).json());
    expect((await resolve(third.id, { outcome: 'no_action', message: 'All fine.' })).statusCode).toBe(200);
    expect(await refunds(paid.id)).toEqual([]);
  });

  it("support's queue lists open disputes with the order's money; a customer token gets 404, a writer 403", async () => {
    const paid = await paidOrder();
    const dispute = disputeSchema.parse((await openDispute(paid.id, { reason: 'quality', description: 'Queue me.' })).json());
    const res = await t.app.inject({ method: 'GET', url: `/api/staff/disputes?orderId=${paid.id}`, headers: auth(support) });
    expect(res.statusCode, res.body).toBe(200);
    const list = staffDisputeListSchema.parse(res.json());
    expect(list.disputes.map((d) => [d.id, d.paid, d.refundable])).toEqual([[dispute.id, paid.cents / 100, paid.cents / 100]]);
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/disputes', headers: auth(customer) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/disputes', headers: auth(writerToken) })).statusCode).toBe(403);
    expect((await resolve(dispute.id, { outcome: 'no_action', message: 'x' }, customer.token)).statusCode).toBe(404);
    expect((await resolve(999_999, { outcome: 'no_action', message: 'x' })).statusCode).toBe(404);
  });
});

describe('limits (ADR 0073)', () => {
  it('cancels and disputes share one counter per account: past it 429 with Retry-After; another account passes', async () => {
    const limited = await insertCustomer(t, 'disputes.limited@example.com');
    const order = await createOrder(limited);
    expect((await cancel(order.id, limited)).statusCode).toBe(200);
    for (let i = 1; i < ROUTE_RATE_LIMITS.afterPayment.max; i += 1) {
      const res =
        i % 2 === 0
          ? await cancel(order.id, limited)
          : await openDispute(order.id, { reason: 'other', description: 'x' }, { who: limited });
      expect(res.statusCode).toBe(409);
    }
    const refused = await cancel(order.id, limited);
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    const mine = await createOrder(other);
    expect((await cancel(mine.id, other)).statusCode).toBe(200);
  });
});
