import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderDetailSchema, REVIEW_COMMENT_MAX_LENGTH, REVIEW_MESSAGE, ROLE } from '@app/domain';
import { createAccessTokens } from '../auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer, insertOrder } from '../../testing/factories';

let t: TestApp;
let meId: number;
let me: string;
let other: string;

const newCustomer = async (email: string): Promise<number> => (await insertCustomer(t, email)).id;
const newOrder = async (status: number, customerId = meId): Promise<number> => {
  return (await insertOrder(t.db, { customerId, status, title: 'Reviewed essay' })).id;
};

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  meId = await newCustomer('reviewer@example.com');
  me = await tokens.sign({ userId: meId, role: ROLE.customer });
  other = await tokens.sign({ userId: await newCustomer('reviewer.other@example.com'), role: ROLE.customer });
});
afterAll(async () => {
  await t.close();
});

const review = (orderId: number | string, payload: Record<string, unknown>, token = me) =>
  t.app.inject({ method: 'POST', url: `/api/en/orders/${orderId}/reviews`, headers: { authorization: `Bearer ${token}` }, payload });
const detail = async (orderId: number) =>
  orderDetailSchema.parse(
    (await t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}`, headers: { authorization: `Bearer ${me}` } })).json(),
  );

describe('POST /api/en/orders/{id}/reviews', () => {
  it('stores a half-star review of a completed order and the order detail then carries it', async () => {
    const orderId = await newOrder(5);
    expect((await detail(orderId)).feedback).toBeNull();
    const res = await review(orderId, { rating: 4.5, comment: 'Great <b>work</b>, thank you!' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: expect.any(Number) });
    expect((await detail(orderId)).feedback).toEqual({ rating: 4.5, comment: 'Great work, thank you!' });
    const [row] = await t.db.query<{ rating_halves: number }>('SELECT rating_halves FROM order_reviews WHERE order_id = $1', [orderId]);
    expect(row?.rating_halves).toBe(9);
  });

  it.each([0, 0.5, 3, 5])('accepts the rating %s', async (rating) => {
    const orderId = await newOrder(5);
    expect((await review(orderId, { rating, comment: '' })).statusCode).toBe(200);
    expect((await detail(orderId)).feedback).toEqual({ rating, comment: '' });
  });

  it.each([5.5, 0.3, -0.5, 4.25, 6])('refuses the rating %s with a message (422) and stores nothing', async (rating) => {
    const orderId = await newOrder(5);
    const res = await review(orderId, { rating, comment: 'x' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: REVIEW_MESSAGE.invalidRating });
    expect((await detail(orderId)).feedback).toBeNull();
  });

  it.each([1, 2, 3, 7, 8, 9, 10, 11])('refuses an order in status %s (409 with a message)', async (status) => {
    const res = await review(await newOrder(status), { rating: 5, comment: 'Too early' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: REVIEW_MESSAGE.notCompleted });
  });

  it('refuses a second review of the same order (409) and keeps the first', async () => {
    const orderId = await newOrder(5);
    expect((await review(orderId, { rating: 2, comment: 'First' })).statusCode).toBe(200);
    const second = await review(orderId, { rating: 5, comment: 'Second' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ message: 'You have already reviewed this order' });
    expect((await detail(orderId)).feedback).toEqual({ rating: 2, comment: 'First' });
  });

  it('counts the comment after HTML is stripped: 2000 characters pass, 2001 are refused', async () => {
    const text = 'a'.repeat(REVIEW_COMMENT_MAX_LENGTH);
    expect((await review(await newOrder(5), { rating: 4, comment: `<p>${text}</p>` })).statusCode).toBe(200);
    const res = await review(await newOrder(5), { rating: 4, comment: `${text}b` });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ message: REVIEW_MESSAGE.commentTooLong });
  });

  it("answers 404 for another customer's order, an unknown id, and to a staff token; 401 without one", async () => {
    const orderId = await newOrder(5);
    expect((await review(orderId, { rating: 5, comment: '' }, other)).statusCode).toBe(404);
    expect((await review(2_000_000_000, { rating: 5, comment: '' })).statusCode).toBe(404);
    const staff = await createAccessTokens(t.config.jwtSecret ?? '', t.clock).sign({ userId: meId, role: ROLE.support });
    expect((await review(orderId, { rating: 5, comment: '' }, staff)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/en/orders/${orderId}/reviews`, payload: { rating: 5 } })).statusCode).toBe(401);
    expect((await detail(orderId)).feedback).toBeNull();
  });
});
