import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AFTER_PAYMENT_MESSAGE as M,
  afterPaymentStateSchema,
  orderDetailSchema,
  ORDER_STATUS,
  ROLE,
  staffOrderViewSchema,
} from '@app/domain';
import { createAccessTokens } from '../auth';
import { insertDelivery, insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

/**
 * ADR 0084, CONTRACT "After payment": a delivery, the customer's answers, the review clock, proposed
 * deadlines; next to each, the abuse (another's ids, twice, racing, late, oversized).
 */
let t: TestApp;
let filesDir: string;
let sign: (userId: number, role: number) => Promise<string>;
let customerId: number;
let customer: string;
let otherCustomer: string;
let writerId: number;
let writer: string;
let otherWriter: string;
let support: string;
let seq = 0;

const H = 3_600_000;
const D = 24 * H;
const addUser = async (role: number, email: string): Promise<number> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES ($1, $2, 'x', 1) RETURNING id`,
    [role, email],
  );
  if (!row) throw new Error('no user');
  return row.id;
};

let ids: { customer: number; other: number; writer: number; otherWriter: number; support: number };
/** Access tokens live 15 minutes on the test clock: after moving it, everyone signs in again. */
const resign = async (): Promise<void> => {
  customer = await sign(ids.customer, ROLE.customer);
  otherCustomer = await sign(ids.other, ROLE.customer);
  writer = await sign(ids.writer, ROLE.writer);
  otherWriter = await sign(ids.otherWriter, ROLE.writer);
  support = await sign(ids.support, ROLE.support);
};
const advance = async (ms: number): Promise<void> => {
  t.clock.advance(ms);
  await resign();
};

beforeAll(async () => {
  filesDir = await mkdtemp(path.join(tmpdir(), 'delivery-files-'));
  t = await buildTestApp({ env: { FILES_DIR: filesDir } });
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  sign = (userId, role) => tokens.sign({ userId, role });
  customerId = await addUser(ROLE.customer, 'delivery.customer@example.com');
  writerId = await addUser(ROLE.writer, 'delivery.writer@example.com');
  ids = {
    customer: customerId,
    other: await addUser(ROLE.customer, 'delivery.other@example.com'),
    writer: writerId,
    otherWriter: await addUser(ROLE.writer, 'delivery.writer2@example.com'),
    support: await addUser(ROLE.support, 'delivery.support@example.com'),
  };
  await resign();
});
afterAll(async () => {
  await t.close();
  await rm(filesDir, { recursive: true, force: true });
});

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const BOUNDARY = '----delivery-boundary';
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(1024, 0x41), Buffer.from('\n%%EOF\n')]);
const upload = (orderId: number, token = writer) =>
  t.app.inject({
    method: 'POST',
    url: `/api/staff/orders/${orderId}/files`,
    headers: { ...auth(token), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="essay.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
      PDF,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
  });
const submit = (orderId: number, message?: string, token = writer) =>
  t.app.inject({
    method: 'POST',
    url: `/api/staff/orders/${orderId}/delivery`,
    headers: auth(token),
    payload: message === undefined ? {} : { message },
  });
const accept = (orderId: number, payload: Record<string, unknown> = {}, token = customer) =>
  t.app.inject({ method: 'POST', url: `/api/en/orders/${orderId}/accept`, headers: auth(token), payload });
const changes = (orderId: number, message: string, token = customer) =>
  t.app.inject({ method: 'POST', url: `/api/en/orders/${orderId}/changes-requested`, headers: auth(token), payload: { message } });
const extendReview = (orderId: number, token = customer) =>
  t.app.inject({ method: 'POST', url: `/api/en/orders/${orderId}/review-extension`, headers: auth(token) });
const propose = (orderId: number, deadline: Date | string, reason = 'The sources arrived late', token = writer) =>
  t.app.inject({
    method: 'POST',
    url: `/api/staff/orders/${orderId}/extensions`,
    headers: auth(token),
    payload: { deadline: typeof deadline === 'string' ? deadline : deadline.toISOString(), reason },
  });
const answer = (orderId: number, extensionId: number, accepted: boolean, token = customer) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/en/orders/${orderId}/extensions/${extensionId}`,
    headers: auth(token),
    payload: { accept: accepted },
  });
const detail = async (orderId: number) =>
  orderDetailSchema.parse((await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}`, headers: auth(customer) })).json());
const outbox = async (to: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}&limit=100` })).json() as {
    messages: { subject: string; text: string }[];
  };
const runJob = () => t.app.inject({ method: 'POST', url: '/api/dev/after-payment/run', payload: {} });
/** ADR 0088: the customer's mails are made by the notifications job once the fold window passed. */
const mailJob = () =>
  t.app.inject({
    method: 'POST',
    url: '/api/dev/notifications/run',
    payload: { at: new Date(t.clock.now().getTime() + 10 * 60_000).toISOString() },
  });

/** An order in progress with the writer, its history started, its deadline 5 days away. */
const inProgress = async (): Promise<number> => {
  seq += 1;
  const { id } = await insertOrder(t.db, {
    customerId,
    status: ORDER_STATUS.inProgress,
    writerId,
    title: `Delivery test ${seq}`,
    deadline: new Date(t.clock.now().getTime() + 5 * D),
  });
  await t.db.query('INSERT INTO order_status_history (order_id, status_id, changed_by, created_at) VALUES ($1, 3, NULL, $2)', [
    id,
    t.clock.now(),
  ]);
  return id;
};
/** An order in progress whose delivery awaits review (through the API: a file, then the delivery). */
const delivered = async (): Promise<number> => {
  const id = await inProgress();
  expect((await upload(id)).statusCode).toBe(200);
  expect((await submit(id, 'Here is your essay')).statusCode).toBe(200);
  return id;
};
const historyOf = async (orderId: number) =>
  t.db.query<{ status_id: number; via: string }>('SELECT status_id, via FROM order_status_history WHERE order_id = $1 ORDER BY id', [
    orderId,
  ]);

describe('a delivery (POST /api/staff/orders/{id}/delivery)', () => {
  it('carries the files uploaded since the last delivery and the message; the review clock runs REVIEW_DAYS; the customer is told', async () => {
    const id = await inProgress();
    expect((await upload(id)).statusCode).toBe(200);
    expect((await upload(id)).statusCode).toBe(200);
    const res = await submit(id, 'Here is your <b>essay</b>');
    expect(res.statusCode).toBe(200);
    const state = afterPaymentStateSchema.parse(res.json());
    expect(state.delivery).toMatchObject({ message: 'Here is your essay', state: 'awaiting_review', reviewExtended: false, number: 1 });
    expect(state.delivery?.files).toHaveLength(2);
    expect(state.delivery?.files[0]).toMatchObject({ name: 'essay.pdf', typeName: 'pdf', remote: true });
    expect(state.delivery?.reviewBy).toBe(new Date(t.clock.now().getTime() + 3 * D).toISOString());
    const order = await detail(id);
    expect(order.delivery?.id).toBe(state.delivery?.id);
    expect(order.events.map((e) => [e.type, e.by])).toEqual([['delivered', 'writer']]);
    await mailJob();
    const mails = await outbox('delivery.customer@example.com');
    expect(mails.messages.some((m) => m.subject === `Your work for order #${id} is ready` && m.text.includes(`/orderinfo/${id}`))).toBe(
      true,
    );
    // Staff's view carries it too.
    const view = staffOrderViewSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/staff/orders/${id}`, headers: auth(support) })).json(),
    );
    expect(view).toMatchObject({ delivered: true, delivery: { id: state.delivery?.id, state: 'awaiting_review' } });
  });

  it('refuses a delivery with no new files, and a second one while the first awaits review (409)', async () => {
    const id = await inProgress();
    const none = await submit(id);
    expect(none.statusCode).toBe(409);
    expect(none.json()).toEqual({ message: M.noNewFiles });
    expect((await upload(id)).statusCode).toBe(200);
    expect((await submit(id)).statusCode).toBe(200);
    expect((await upload(id)).statusCode).toBe(200);
    expect((await submit(id)).json()).toEqual({ message: M.awaitingReview });
    const [count] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM order_deliveries WHERE order_id = $1', [id]);
    expect(count?.n).toBe(1);
  });

  it('two deliveries at once: one is stored, the other refused', async () => {
    const id = await inProgress();
    expect((await upload(id)).statusCode).toBe(200);
    const results = await Promise.all([submit(id, 'a'), submit(id, 'b'), submit(id, 'c')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
  });

  it('is refused on an order not in progress (409), answers 404 to another writer and to a customer, and bounds the message', async () => {
    const paid = (await insertOrder(t.db, { customerId, status: ORDER_STATUS.paid, writerId })).id;
    expect((await upload(paid)).statusCode).toBe(200);
    expect((await submit(paid)).json()).toEqual({ message: M.notDeliverable });
    const id = await inProgress();
    expect((await upload(id)).statusCode).toBe(200);
    expect((await submit(id, undefined, otherWriter)).statusCode).toBe(404);
    expect((await submit(id, undefined, customer)).statusCode).toBe(404);
    expect((await submit(999_999, undefined, support)).statusCode).toBe(404);
    expect((await submit(id, 'x'.repeat(6000))).statusCode).toBe(422);
    expect((await submit(id, 'x'.repeat(40_000))).statusCode).toBe(413);
    // Support may deliver on any order.
    expect((await submit(id, 'From support', support)).statusCode).toBe(200);
  });
});

describe('the customer accepts (POST /api/en/orders/{id}/accept)', () => {
  it('completes the order through the table (5, completed_at), stores the review, tells the writer; twice is 409', async () => {
    const id = await delivered();
    const res = await accept(id, { rating: 4.5, comment: 'Great work' });
    expect(res.statusCode).toBe(200);
    expect(afterPaymentStateSchema.parse(res.json())).toMatchObject({
      status: ORDER_STATUS.completed,
      delivery: { state: 'accepted', reviewBy: null },
    });
    const order = await detail(id);
    expect(order.status).toBe(ORDER_STATUS.completed);
    expect(order.feedback).toEqual({ rating: 4.5, comment: 'Great work' });
    expect(order.statusHistory.at(-1)).toMatchObject({ status: 5, by: 'customer' });
    expect((await historyOf(id)).at(-1)).toEqual({ status_id: 5, via: 'acceptance' });
    const [row] = await t.db.query<{ completed_at: Date }>('SELECT completed_at FROM orders WHERE id = $1', [id]);
    expect(row?.completed_at.getTime()).toBe(t.clock.now().getTime());
    expect((await outbox('delivery.writer@example.com')).messages.some((m) => m.subject === `Order #${id} was accepted`)).toBe(true);
    const again = await accept(id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: M.alreadyAccepted });
    expect((await historyOf(id)).filter((h) => h.status_id === 5)).toHaveLength(1);
  });

  it('accepts without a review; a bad rating is 422 before anything changes; a comment without a rating too', async () => {
    const id = await delivered();
    expect((await accept(id, { rating: 4.3 })).statusCode).toBe(422);
    expect((await accept(id, { comment: 'No stars' })).statusCode).toBe(422);
    expect((await accept(id, { rating: 5, comment: 'x'.repeat(9000) })).statusCode).toBe(422);
    expect((await detail(id)).status).toBe(ORDER_STATUS.inProgress);
    expect((await accept(id)).statusCode).toBe(200);
    expect((await detail(id)).feedback).toBeNull();
  });

  it('answers 404 for another customer’s order, 409 with no delivery, and five racing accepts complete it once', async () => {
    const id = await delivered();
    expect((await accept(id, {}, otherCustomer)).statusCode).toBe(404);
    expect((await accept(id, {}, writer)).statusCode).toBe(404);
    const bare = await inProgress();
    expect((await accept(bare)).json()).toEqual({ message: M.noDelivery });
    const results = await Promise.all(Array.from({ length: 5 }, () => accept(id)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect((await historyOf(id)).filter((h) => h.status_id === 5)).toHaveLength(1);
  });

  it('a writer file uploaded without a delivery cannot be accepted', async () => {
    const id = await inProgress();
    expect((await upload(id)).statusCode).toBe(200);
    expect((await accept(id)).json()).toEqual({ message: M.noDelivery });
  });
});

describe('the customer asks for changes (POST /api/en/orders/{id}/changes-requested)', () => {
  it('stops the clock, puts the message in the writer chat (one send path), tells the writer; the next delivery needs new files', async () => {
    const id = await delivered();
    const res = await changes(id, 'Please add <i>two</i> sources');
    expect(res.statusCode).toBe(200);
    expect(afterPaymentStateSchema.parse(res.json()).delivery).toMatchObject({ state: 'changes_requested', reviewBy: null });
    const chat = (
      await t.app.inject({ method: 'GET', url: `/chat/api/customers/orders/${id}/messages`, headers: auth(customer) })
    ).json() as {
      messages: { body: string; direction: { id: number } }[];
    };
    expect(chat.messages.map((m) => [m.body, m.direction.id])).toEqual([['Please add two sources', 1]]);
    const staffChat = (
      await t.app.inject({ method: 'GET', url: `/chat/api/staff/orders/${id}/messages`, headers: auth(writer) })
    ).json() as {
      messages: { body: string }[];
    };
    expect(staffChat.messages.map((m) => m.body)).toContain('Please add two sources');
    expect(
      (await outbox('delivery.writer@example.com')).messages.some(
        (m) => m.subject === `Order #${id}: the customer asks for changes` && m.text.includes('Please add two sources'),
      ),
    ).toBe(true);
    // A second request, and the clock: nothing completes the order while changes are under way.
    expect((await changes(id, 'Again')).json()).toEqual({ message: M.notAwaitingReview });
    await advance(4 * D);
    expect((await runJob()).statusCode).toBe(200);
    expect((await detail(id)).status).toBe(ORDER_STATUS.inProgress);
    expect((await submit(id)).json()).toEqual({ message: M.noNewFiles });
    expect((await upload(id)).statusCode).toBe(200);
    const second = afterPaymentStateSchema.parse((await submit(id, 'Revised')).json());
    expect(second.delivery).toMatchObject({ number: 2, state: 'awaiting_review', message: 'Revised' });
    expect(second.delivery?.files).toHaveLength(1);
    expect(second.events.map((e) => e.type)).toEqual(['delivered', 'changes_requested', 'delivered']);
  });

  it('needs a message (422), bounds it (422, then 413 raw), and answers 404 to another customer', async () => {
    const id = await delivered();
    expect((await changes(id, '  <p></p> ')).json()).toMatchObject({ message: M.changesRequired });
    expect((await changes(id, 'x'.repeat(1600))).json()).toMatchObject({ message: M.changesTooLong });
    expect((await changes(id, 'x'.repeat(7000))).statusCode).toBe(422);
    expect((await changes(id, 'x'.repeat(40_000))).statusCode).toBe(413);
    expect((await changes(id, 'Mine?', otherCustomer)).statusCode).toBe(404);
    expect((await detail(id)).delivery?.state).toBe('awaiting_review');
  });
});

describe('the review clock', () => {
  it('pushes once by 3 days; a second push is 409', async () => {
    const id = await delivered();
    const before = (await detail(id)).delivery?.reviewBy ?? '';
    const res = afterPaymentStateSchema.parse((await extendReview(id)).json());
    expect(res.delivery?.reviewBy).toBe(new Date(new Date(before).getTime() + 3 * D).toISOString());
    expect(res.delivery?.reviewExtended).toBe(true);
    expect((await extendReview(id)).json()).toEqual({ message: M.reviewAlreadyExtended });
    expect((await extendReview(id, otherCustomer)).statusCode).toBe(404);
  });

  it('completes the order by itself when reviewBy passes, tells the customer, once', async () => {
    const id = await delivered();
    await advance(3 * D - 1000);
    await runJob();
    expect((await detail(id)).status).toBe(ORDER_STATUS.inProgress);
    await advance(1000);
    expect((await runJob()).json().completed).toBeGreaterThanOrEqual(1);
    const order = await detail(id);
    expect(order.status).toBe(ORDER_STATUS.completed);
    expect(order.delivery).toMatchObject({ state: 'auto_completed', reviewBy: null });
    expect(order.statusHistory.at(-1)).toMatchObject({ status: 5, by: 'system' });
    expect((await historyOf(id)).at(-1)).toEqual({ status_id: 5, via: 'review_clock' });
    await mailJob();
    expect(
      (await outbox('delivery.customer@example.com')).messages.filter((m) => m.text.includes(`Order #${id} is complete`)),
    ).toHaveLength(1);
    await runJob();
    expect((await historyOf(id)).filter((h) => h.status_id === 5)).toHaveLength(1);
    expect((await accept(id)).json()).toEqual({ message: M.alreadyAccepted });
  });

  it('racing the customer’s accept with the clock: the order completes once, one way or the other', async () => {
    for (let i = 0; i < 3; i += 1) {
      const id = await delivered();
      await advance(3 * D);
      const [acceptRes] = await Promise.all([accept(id), runJob(), runJob()]);
      const history = (await historyOf(id)).filter((h) => h.status_id === 5);
      expect(history).toHaveLength(1);
      expect(acceptRes.statusCode).toBe(history[0]?.via === 'acceptance' ? 200 : 409);
      const [d] = await t.db.query<{ state: string }>('SELECT state FROM order_deliveries WHERE order_id = $1', [id]);
      expect(d?.state).toBe(history[0]?.via === 'acceptance' ? 'accepted' : 'auto_completed');
    }
  });

  it('an order support completed by hand: its delivery counts as accepted and its clock stops', async () => {
    const id = await delivered();
    expect(
      (await t.app.inject({ method: 'PUT', url: `/api/staff/orders/${id}/status`, headers: auth(support), payload: { status: 5 } }))
        .statusCode,
    ).toBe(200);
    await runJob();
    expect((await detail(id)).delivery).toMatchObject({ state: 'accepted', reviewBy: null });
  });
});

describe('a proposed deadline (extensions)', () => {
  it('shows on the order; accepting moves the deadline; proposal and answer are on the timeline', async () => {
    const id = await inProgress();
    const before = await detail(id);
    const proposed = new Date(new Date(before.deadline).getTime() + 18 * H);
    const res = await propose(id, proposed);
    expect(res.statusCode).toBe(200);
    const request = afterPaymentStateSchema.parse(res.json()).extensionRequest;
    expect(request).toMatchObject({
      deadline: proposed.toISOString(),
      reason: 'The sources arrived late',
      currentDeadline: before.deadline,
      proposedBy: 'writer',
      answerBy: new Date(t.clock.now().getTime() + 24 * H).toISOString(),
    });
    await mailJob();
    expect(
      (await outbox('delivery.customer@example.com')).messages.some((m) => m.subject === `Your writer asks for more time on order #${id}`),
    ).toBe(true);
    expect((await propose(id, new Date(proposed.getTime() + H))).json()).toEqual({ message: M.extensionOpen });
    const ok = await answer(id, request?.id ?? 0, true);
    expect(ok.statusCode).toBe(200);
    const after = await detail(id);
    expect(after.deadline).toBe(proposed.toISOString());
    expect(after.extensionRequest).toBeNull();
    expect(after.events.map((e) => [e.type, e.by])).toEqual([
      ['extension_proposed', 'writer'],
      ['extension_accepted', 'customer'],
    ]);
    expect((await answer(id, request?.id ?? 0, false)).json()).toEqual({ message: M.extensionAnswered });
  });

  it('declining keeps the original deadline', async () => {
    const id = await inProgress();
    const { deadline } = await detail(id);
    const request = afterPaymentStateSchema.parse(
      (await propose(id, new Date(new Date(deadline).getTime() + D), 'Need a day', support)).json(),
    ).extensionRequest;
    expect(request?.proposedBy).toBe('support');
    expect((await answer(id, request?.id ?? 0, false)).statusCode).toBe(200);
    expect((await detail(id)).deadline).toBe(deadline);
  });

  it('an answer after answerBy is 409 (the original deadline stands) and support is alerted; silence does the same through the job', async () => {
    const late = await inProgress();
    const { deadline } = await detail(late);
    const request = afterPaymentStateSchema.parse(
      (await propose(late, new Date(new Date(deadline).getTime() + D))).json(),
    ).extensionRequest;
    await advance(24 * H + 1);
    const res = await answer(late, request?.id ?? 0, true);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: M.extensionExpired });
    expect((await detail(late)).deadline).toBe(deadline);
    expect((await detail(late)).events.map((e) => e.type)).toEqual(['extension_proposed', 'extension_expired']);

    const silent = await inProgress();
    const silentDeadline = (await detail(silent)).deadline;
    await propose(silent, new Date(new Date(silentDeadline).getTime() + D));
    await advance(24 * H + 1);
    expect((await runJob()).json().expired).toBeGreaterThanOrEqual(1);
    const order = await detail(silent);
    expect(order.extensionRequest).toBeNull();
    expect(order.deadline).toBe(silentDeadline);
    expect(order.events.at(-1)).toMatchObject({ type: 'extension_expired', by: 'system' });

    const alerts = (await t.app.inject({ method: 'GET', url: '/api/staff/extensions/unanswered', headers: auth(support) })).json() as {
      proposals: { id: number; orderId: number }[];
    };
    expect(alerts.proposals.map((p) => p.orderId)).toEqual(expect.arrayContaining([late, silent]));
    const view = staffOrderViewSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/staff/orders/${silent}`, headers: auth(support) })).json(),
    );
    expect(view.extensionAlert).toMatchObject({ deadline: expect.any(String) });
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/extensions/unanswered', headers: auth(writer) })).statusCode).toBe(403);
    const seen = alerts.proposals.find((p) => p.orderId === silent)?.id ?? 0;
    expect((await t.app.inject({ method: 'PUT', url: `/api/staff/extensions/${seen}/seen`, headers: auth(writer) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: `/api/staff/extensions/${seen}/seen`, headers: auth(support) })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'PUT', url: `/api/staff/extensions/${seen}/seen`, headers: auth(support) })).statusCode).toBe(404);
  });

  it('refuses a deadline not later, too far, or not a date (422); another writer and another customer get 404', async () => {
    const id = await inProgress();
    const { deadline } = await detail(id);
    const base = new Date(deadline).getTime();
    expect((await propose(id, new Date(base - H))).json()).toMatchObject({ message: M.deadlineNotLater });
    expect((await propose(id, new Date(base + 31 * D))).json()).toMatchObject({ message: M.deadlineTooFar });
    expect((await propose(id, 'tomorrow')).json()).toMatchObject({ message: M.deadlineInvalid });
    expect((await propose(id, new Date(base + D), ' ')).json()).toMatchObject({ message: M.reasonRequired });
    expect((await propose(id, new Date(base + D), 'r', otherWriter)).statusCode).toBe(404);
    expect((await propose(id, new Date(base + D), 'r', customer)).statusCode).toBe(404);
    const request = afterPaymentStateSchema.parse((await propose(id, new Date(base + D))).json()).extensionRequest;
    expect((await answer(id, request?.id ?? 0, true, otherCustomer)).statusCode).toBe(404);
    expect((await answer(id, 999_999, true)).statusCode).toBe(404);
    const results = await Promise.all([answer(id, request?.id ?? 0, true), answer(id, request?.id ?? 0, false)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('is refused on a completed order and while a delivery awaits review (409)', async () => {
    const id = await delivered();
    const { deadline } = await detail(id);
    expect((await propose(id, new Date(new Date(deadline).getTime() + D))).json()).toEqual({ message: M.awaitingReview });
    await accept(id);
    expect((await propose(id, new Date(new Date(deadline).getTime() + D))).json()).toEqual({ message: M.extensionNotAllowed });
  });
});

describe('another customer’s order is hidden everywhere (404)', () => {
  it('on every customer route', async () => {
    const mine = await insertOrder(t.db, { customerId, status: ORDER_STATUS.inProgress, writerId });
    await insertDelivery(t.db, { orderId: mine.id, customerId, writerId });
    for (const res of [
      await accept(mine.id, {}, otherCustomer),
      await changes(mine.id, 'x', otherCustomer),
      await extendReview(mine.id, otherCustomer),
      await answer(mine.id, 1, true, otherCustomer),
    ])
      expect(res.statusCode).toBe(404);
    expect((await detail(mine.id)).delivery?.state).toBe('awaiting_review');
  });
});
