import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultOrderForm, ROLE, toOrderBody } from '@app/domain';
import { createAccessTokens } from '../auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer } from '../../testing/factories';
import { createReconcileRepo } from './payments.reconcile.repo';
import { fondySignature } from './providers/fondy/fondy.adapter';

/**
 * ADR 0058: support's queue of stale attempts the reconciliation job (ADR 0037) handed over,
 * `GET /api/staff/payments/attention`, and `POST …/{paymentId}/resolved`.
 */

let t: TestApp;
let me: { id: number; token: string };
let other: { id: number; token: string };
let support: string;
let writer: string;

beforeAll(async () => {
  t = await buildTestApp();
  me = await insertCustomer(t, 'stale-payer@example.com');
  other = await insertCustomer(t, 'stale-other@example.com');
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  const staff = await t.db.query<{ id: number; role: number }>(
    `SELECT id, role FROM users WHERE email IN ('support@example.com', 'writer@example.com')`,
  );
  const of = (role: number) => staff.find((u) => u.role === role)?.id ?? 0;
  support = await tokens.sign({ userId: of(ROLE.support), role: ROLE.support });
  writer = await tokens.sign({ userId: of(ROLE.writer), role: ROLE.writer });
});
afterAll(async () => {
  await t.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const newOrder = async () => {
  const payload = toOrderBody(
    { ...defaultOrderForm(1), subject: 4, title: 'Stale checkout', details: 'Explain causes and mitigation.' },
    1,
  );
  const res = await t.app.inject({ method: 'POST', url: '/api/en/sites/categories/1/orders', headers: bearer(me.token), payload });
  expect(res.statusCode).toBe(200);
  return res.json<{ id: number; uid: string }>();
};
/** An order with an open sandbox attempt at `provider` (fondy, paymentwall, paycoreio, paypal in the URL). */
const openAttempt = async (urlProvider = 'fondy') => {
  const order = await newOrder();
  const res = await t.app.inject({ method: 'GET', url: `/checkout/${urlProvider}/order/${order.uid}?hashDevice=d` });
  expect(res.statusCode).toBe(302);
  const paymentId = decodeURIComponent(new URL(String(res.headers.location), 'http://x').pathname.split('/').at(-1) ?? '');
  return { ...order, paymentId };
};
const flag = (paymentId: string, reason: 'no_status_api' | 'provider_error' | 'still_open') =>
  createReconcileRepo(t.db).handToSupport({ id: paymentId, now: t.clock.now(), reason });
const list = (token = support) => t.app.inject({ method: 'GET', url: '/api/staff/payments/attention', headers: bearer(token) });
const listed = async () => (await list()).json<{ attempts: { paymentId: string }[] }>().attempts;
const resolve = (paymentId: string, payload: unknown, token = support) =>
  t.app.inject({
    method: 'POST',
    url: `/api/staff/payments/attention/${encodeURIComponent(paymentId)}/resolved`,
    headers: bearer(token),
    payload: payload as object,
  });
const attempt = async (paymentId: string) =>
  (
    await t.db.query<{ state: string; support_outcome: string | null }>('SELECT state, support_outcome FROM payments WHERE id = $1', [
      paymentId,
    ])
  )[0];
const orderRow = async (id: number) =>
  (await t.db.query<{ status_id: number; pending: boolean }>('SELECT status_id, pending FROM orders WHERE id = $1', [id]))[0];
/** A paid Fondy callback for the attempt, signed with the sandbox key as Fondy signs. */
const fondyPaid = async (paymentId: string, cents: number) => {
  const [secret] = await t.db.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'payments_sandbox_fondy'`);
  const payload: Record<string, string> = {
    order_id: paymentId,
    merchant_id: '1396424',
    currency: 'USD',
    order_status: 'approved',
    payment_id: `late-${paymentId.slice(0, 8)}`,
    amount: String(cents),
  };
  payload.signature = fondySignature(payload, secret?.value ?? '');
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/fondy/callback',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(payload).toString(),
  });
};
const amountCents = async (paymentId: string) =>
  (await t.db.query<{ amount_cents: number }>('SELECT amount_cents FROM payments WHERE id = $1', [paymentId]))[0]?.amount_cents ?? 0;

describe('GET /api/staff/payments/attention', () => {
  it('lists flagged open attempts with order, customer email, provider, amount, reason and since; not the unflagged ones', async () => {
    const flagged = await openAttempt('paymentwall');
    const unflagged = await openAttempt('fondy');
    await flag(flagged.paymentId, 'no_status_api');
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('no-store');
    const rows = res.json<{ attempts: Record<string, unknown>[] }>().attempts;
    expect(rows.find((r) => r.paymentId === flagged.paymentId)).toEqual({
      paymentId: flagged.paymentId,
      orderId: flagged.id,
      customerId: me.id,
      customerEmail: 'stale-payer@example.com',
      provider: 'paymentwall',
      amount: (await amountCents(flagged.paymentId)) / 100,
      currency: 'USD',
      state: 'created',
      reason: 'no_status_api',
      checks: 0,
      sandbox: true,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      since: t.clock.now().toISOString(),
    });
    expect(rows.some((r) => r.paymentId === unflagged.paymentId)).toBe(false);
  });

  it('drops an attempt a late callback settled meanwhile', async () => {
    const a = await openAttempt('fondy');
    await flag(a.paymentId, 'provider_error');
    expect((await listed()).some((r) => r.paymentId === a.paymentId)).toBe(true);
    expect((await fondyPaid(a.paymentId, await amountCents(a.paymentId))).statusCode).toBe(200);
    expect((await orderRow(a.id))?.status_id).toBe(2);
    expect((await listed()).some((r) => r.paymentId === a.paymentId)).toBe(false);
  });

  it('support only: a writer gets 403, a customer 404, no token 401', async () => {
    expect((await list(writer)).statusCode).toBe(403);
    expect((await list(me.token)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/staff/payments/attention' })).statusCode).toBe(401);
  });
});

describe('POST /api/staff/payments/attention/{paymentId}/resolved', () => {
  it('declined: the attempt is declined once, the order no longer pending, off the list; money arriving later is parked', async () => {
    const a = await openAttempt('fondy');
    await flag(a.paymentId, 'still_open');
    expect((await orderRow(a.id))?.pending).toBe(true);
    const res = await resolve(a.paymentId, { outcome: 'declined' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ paymentId: a.paymentId, outcome: 'declined', state: 'declined', resolvedAt: t.clock.now().toISOString() });
    expect(await attempt(a.paymentId)).toEqual({ state: 'declined', support_outcome: 'declined' });
    expect(await orderRow(a.id)).toEqual({ status_id: 1, pending: false });
    expect((await listed()).some((r) => r.paymentId === a.paymentId)).toBe(false);
    // Twice: the second finds nothing to resolve.
    expect((await resolve(a.paymentId, { outcome: 'declined' })).statusCode).toBe(404);
    const [events] = await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payment_events WHERE payment_id = $1`, [a.paymentId]);
    expect(events?.n).toBe(1);
    // The provider's paid callback after all: parked for support, the order not paid by a declined attempt.
    expect((await fondyPaid(a.paymentId, await amountCents(a.paymentId))).statusCode).toBe(200);
    expect(await attempt(a.paymentId)).toMatchObject({ state: 'parked' });
    expect((await orderRow(a.id))?.status_id).toBe(1);
    const unapplied = await t.app.inject({ method: 'GET', url: '/api/staff/payments/unapplied', headers: bearer(support) });
    expect(unapplied.json<{ payments: { paymentId: string; reason: string }[] }>().payments).toContainEqual(
      expect.objectContaining({ paymentId: a.paymentId, reason: 'attempt_declined' }),
    );
  });

  it('kept_open: the attempt stays open and off the list; its late callback still pays the order', async () => {
    const a = await openAttempt('fondy');
    await flag(a.paymentId, 'still_open');
    const res = await resolve(a.paymentId, { outcome: 'kept_open' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ outcome: 'kept_open', state: 'created' });
    expect((await listed()).some((r) => r.paymentId === a.paymentId)).toBe(false);
    expect((await fondyPaid(a.paymentId, await amountCents(a.paymentId))).statusCode).toBe(200);
    expect(await orderRow(a.id)).toEqual({ status_id: 2, pending: false });
  });

  it('two supports resolving at once: one 200, one 404', async () => {
    const a = await openAttempt('fondy');
    await flag(a.paymentId, 'still_open');
    const codes = (await Promise.all([resolve(a.paymentId, { outcome: 'declined' }), resolve(a.paymentId, { outcome: 'kept_open' })])).map(
      (r) => r.statusCode,
    );
    expect(codes.sort()).toEqual([200, 404]);
  });

  it('refuses what is not on the list, other roles, and bad bodies', async () => {
    const open = await openAttempt('fondy');
    // Not flagged, or unknown: 404.
    expect((await resolve(open.paymentId, { outcome: 'declined' })).statusCode).toBe(404);
    expect((await resolve('no-such-attempt', { outcome: 'declined' })).statusCode).toBe(404);
    expect(await attempt(open.paymentId)).toMatchObject({ state: 'created' });
    await flag(open.paymentId, 'still_open');
    expect((await resolve(open.paymentId, { outcome: 'declined' }, writer)).statusCode).toBe(403);
    expect((await resolve(open.paymentId, { outcome: 'declined' }, me.token)).statusCode).toBe(404);
    expect((await resolve(open.paymentId, { outcome: 'declined' }, other.token)).statusCode).toBe(404);
    expect((await resolve(open.paymentId, { outcome: 'paid' })).statusCode).toBe(422);
    expect((await resolve(open.paymentId, { outcome: 'declined', extra: { nested: [1, 2] } })).statusCode).toBe(422);
    expect((await resolve('x'.repeat(65), { outcome: 'declined' })).statusCode).toBe(422);
    expect(await attempt(open.paymentId)).toMatchObject({ state: 'created', support_outcome: null });
  });
});
