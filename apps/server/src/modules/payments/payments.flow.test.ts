import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PAYMENT_SYSTEMS, ROLE, type PaymentSystem } from '@app/domain';
import { createAccessTokens } from '../auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertOrder } from '../../testing/factories';
import { fondySignature } from './providers/fondy/fondy.adapter';
import { paycoreSignature } from './providers/paycore/paycore.adapter';

let t: TestApp;
let tokenFor: (userId: number) => Promise<string>;
let customerId: number;
let otherId: number;
let seq = 0;

const CHECKOUT: Record<PaymentSystem, (uid: string) => string> = {
  fondy: (uid) => `/checkout/fondy/order/${uid}?hashDevice=dev-hash`,
  paymentwall: (uid) => `/checkout/paymentwall/order/${uid}?hashDevice=dev-hash`,
  paycore: (uid) => `/checkout/paycoreio/order/${uid}?hashDevice=dev-hash`,
  paypal: (uid) => `/pp/sdk/redirect?uid=${uid}&hashDevice=dev-hash`,
};

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  tokenFor = (userId) => tokens.sign({ userId, role: ROLE.customer });
  const [a] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES (1, 'payer@example.com', 'x', 1) RETURNING id`,
  );
  const [b] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES (1, 'bystander@example.com', 'x', 1) RETURNING id`,
  );
  if (!a || !b) throw new Error('no customers');
  customerId = a.id;
  otherId = b.id;
});
afterAll(async () => {
  await t.close();
});

/** An unpaid order of 24.00 USD stored as the wizard would store it. */
const newOrder = async (opts: { customer?: number; category?: number; workType?: number; status?: number } = {}) => {
  seq += 1;
  const uid = `uid-${String(seq).padStart(4, '0')}-abcdefghijklmnop`;
  const row = await insertOrder(t.db, {
    uid,
    customerId: opts.customer ?? customerId,
    siteCategory: opts.category ?? 1,
    workTypeId: opts.workType ?? 1,
    title: `Essay number ${seq}`,
    status: opts.status ?? 1,
  });
  return { id: row.id, uid };
};

const orderState = async (orderId: number) => {
  const [o] = await t.db.query<{ status_id: number; pending: boolean }>('SELECT status_id, pending FROM orders WHERE id = $1', [orderId]);
  const [h] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM order_status_history WHERE order_id = $1 AND status_id = 2', [
    orderId,
  ]);
  const [tr] = await t.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM transactions WHERE order_id = $1 AND type = 'payment' AND status = 'completed'`,
    [orderId],
  );
  return { status: o?.status_id, pending: o?.pending, paidHistory: h?.n, transactions: tr?.n };
};

/** GET checkout → the sandbox page's path and the attempt id. */
const checkout = async (provider: PaymentSystem, uid: string) => {
  const res = await t.app.inject({ method: 'GET', url: CHECKOUT[provider](uid) });
  expect(res.statusCode).toBe(302);
  const location = new URL(String(res.headers.location));
  expect(location.pathname).toMatch(new RegExp(`^/sandbox/${provider}/[A-Za-z0-9_-]{16,}$`));
  return { path: location.pathname, paymentId: location.pathname.split('/').at(-1) ?? '' };
};

const paymentStatus = async (orderId: number, userId = customerId) =>
  t.app.inject({ method: 'GET', url: `/api/en/orders/${orderId}/payment`, headers: { authorization: `Bearer ${await tokenFor(userId)}` } });

describe.each(PAYMENT_SYSTEMS)('sandbox %s end to end through the routes', (provider) => {
  it('pays: checkout → sandbox page → Pay → signed callback → order paid once, one transaction, ?payment=success', async () => {
    const order = await newOrder();
    const { path } = await checkout(provider, order.uid);
    expect((await orderState(order.id)).pending).toBe(true);

    const page = await t.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain(`#${order.id}`);
    expect(page.body).toContain(`Essay number`);
    expect(page.body).toContain('$24.00');
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).toContain(`action="${path}/pay"`);
    expect(page.body).toContain(`action="${path}/decline"`);

    const pay = await t.app.inject({ method: 'POST', url: `${path}/pay` });
    expect(pay.statusCode).toBe(303);
    expect(pay.headers.location).toBe(`/orderinfo/${order.id}/details?payment=success`);
    expect(await orderState(order.id)).toEqual({ status: 2, pending: false, paidHistory: 1, transactions: 1 });
    expect((await paymentStatus(order.id)).json()).toEqual({ status: 'paid', pending: false });
  });

  it('declines: ?payment=fail, the order stays unpaid and is no longer pending', async () => {
    const order = await newOrder();
    const { path } = await checkout(provider, order.uid);
    const decline = await t.app.inject({ method: 'POST', url: `${path}/decline` });
    expect(decline.statusCode).toBe(303);
    expect(decline.headers.location).toBe(`/orderinfo/${order.id}/details?payment=fail`);
    expect(await orderState(order.id)).toEqual({ status: 1, pending: false, paidHistory: 0, transactions: 0 });
    expect((await paymentStatus(order.id)).json()).toEqual({ status: 'declined', pending: false });
  });
});

describe('checkout refuses what cannot be paid', () => {
  it('sends a paid order back to its page and starts no attempt', async () => {
    const order = await newOrder({ status: 2 });
    const res = await t.app.inject({ method: 'GET', url: CHECKOUT.fondy(order.uid) });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/orderinfo/${order.id}/details`);
    const [n] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payments WHERE order_id = $1', [order.id]);
    expect(n?.n).toBe(0);
  });

  it('refuses a second payment once the order is paid', async () => {
    const order = await newOrder();
    const { path } = await checkout('paycore', order.uid);
    await t.app.inject({ method: 'POST', url: `${path}/pay` });
    const again = await t.app.inject({ method: 'GET', url: CHECKOUT.fondy(order.uid) });
    expect(again.headers.location).toBe(`/orderinfo/${order.id}/details`);
    expect((await orderState(order.id)).transactions).toBe(1);
  });

  it('answers 404 for a provider the payments_rules do not allow for the work type (resume editing: no PayPal)', async () => {
    const order = await newOrder({ category: 3, workType: 2 });
    expect((await t.app.inject({ method: 'GET', url: CHECKOUT.paypal(order.uid) })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: CHECKOUT.fondy(order.uid) })).statusCode).toBe(302);
  });

  it('answers 404 for an unknown uid', async () => {
    expect((await t.app.inject({ method: 'GET', url: CHECKOUT.fondy('no-such-order-uid-0000') })).statusCode).toBe(404);
  });
});

/** A Fondy callback for the attempt, signed with the sandbox key as Fondy signs. */
const fondyCallback = async (paymentId: string, fields: Record<string, string>, secretOverride?: string) => {
  const [secret] = await t.db.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'payments_sandbox_fondy'`);
  const body: Record<string, string> = { order_id: paymentId, merchant_id: '1396424', amount: '2400', currency: 'USD', ...fields };
  body.signature = fondySignature(body, secretOverride ?? secret?.value ?? '');
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/fondy/callback',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(body).toString(),
  });
};
const eventCount = async (paymentId: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_events WHERE payment_id = $1', [paymentId]))[0]?.n;

describe('POST /api/payments/{provider}/callback', () => {
  it('refuses a forged callback with 403 and changes nothing', async () => {
    const order = await newOrder();
    const { paymentId } = await checkout('fondy', order.uid);
    const res = await fondyCallback(paymentId, { order_status: 'approved', payment_id: '1' }, 'not-the-key');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Invalid signature' });
    expect(await orderState(order.id)).toEqual({ status: 1, pending: true, paidHistory: 0, transactions: 0 });
    expect(await eventCount(paymentId)).toBe(0);
  });

  it('refuses a tampered body (signed, then the amount changed) with 403', async () => {
    const order = await newOrder();
    const { path } = await checkout('paycore', order.uid);
    const [secret] = await t.db.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'payments_sandbox_paycore'`);
    expect(secret).toBeDefined();
    const event = (amount: number) =>
      JSON.stringify({
        data: { id: 'cpi_x', attributes: { status: 'processed', amount, currency: 'USD', reference_id: path.split('/').at(-1) } },
      });
    // Signed as paycore.io signs the body it sends; then the amount is changed on the way.
    const signature = paycoreSignature(event(24), secret?.value ?? '');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/paycore/callback',
      headers: { 'content-type': 'application/json', 'x-signature': signature },
      payload: event(1),
    });
    expect(res.statusCode).toBe(403);
    expect((await orderState(order.id)).status).toBe(1);
    expect(await t.db.query('SELECT 1 FROM payment_events WHERE payment_id = $1', [path.split('/').at(-1)])).toHaveLength(0);
  });

  it('replaying the same callback pays once and writes one transaction', async () => {
    const order = await newOrder();
    const { paymentId } = await checkout('fondy', order.uid);
    for (let i = 0; i < 3; i += 1) {
      const res = await fondyCallback(paymentId, { order_status: 'approved', payment_id: '777' });
      expect(res.statusCode).toBe(200);
    }
    expect(await orderState(order.id)).toEqual({ status: 2, pending: false, paidHistory: 1, transactions: 1 });
    expect(await eventCount(paymentId)).toBe(1);
  });

  it('parks an authentic callback whose amount or currency differs from the attempt: the order is not paid, the money is recorded (ADR 0034)', async () => {
    for (const [fields, reason] of [
      [{ amount: '100' }, 'amount_mismatch'],
      [{ currency: 'EUR' }, 'currency_mismatch'],
    ] as const) {
      const order = await newOrder();
      const { paymentId } = await checkout('fondy', order.uid);
      const res = await fondyCallback(paymentId, { order_status: 'approved', payment_id: `${paymentId}-x`, ...fields });
      expect(res.statusCode).toBe(200);
      expect(await orderState(order.id)).toEqual({ status: 1, pending: false, paidHistory: 0, transactions: 0 });
      const [parked] = await t.db.query<{ reason: string; amount_cents: number; currency: string }>(
        'SELECT reason, amount_cents, currency FROM unapplied_payments WHERE payment_id = $1',
        [paymentId],
      );
      expect(parked).toEqual({ reason, amount_cents: 'amount' in fields ? 100 : 2400, currency: 'currency' in fields ? 'EUR' : 'USD' });
      const [event] = await t.db.query<{ applied: boolean }>('SELECT applied FROM payment_events WHERE payment_id = $1', [paymentId]);
      expect(event?.applied).toBe(false);
    }
  });

  it('answers a Paymentwall pingback with the body OK', async () => {
    const order = await newOrder();
    const { path } = await checkout('paymentwall', order.uid);
    const pay = await t.app.inject({ method: 'POST', url: `${path}/pay` });
    expect(pay.headers.location).toContain('payment=success');
    // Replay the pingback by hand: same answer, nothing more happens.
    const [secret] = await t.db.query<{ value: string }>(`SELECT value FROM app_secrets WHERE name = 'payments_sandbox_paymentwall'`);
    const { paymentwallSignature } = await import('./providers/paymentwall/paymentwall.adapter');
    const params: Record<string, string> = {
      uid: String(customerId),
      goodsid: path.split('/').at(-1) ?? '',
      type: '0',
      ref: 'b-replay',
      sign_version: '3',
    };
    params.sig = paymentwallSignature(params, secret?.value ?? '', 3);
    const res = await t.app.inject({ method: 'GET', url: `/api/payments/paymentwall/callback?${new URLSearchParams(params).toString()}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('OK');
    expect((await orderState(order.id)).transactions).toBe(1);
  });
});

describe('exactly once under shuffled and duplicated callbacks (property)', () => {
  const FONDY_STATUS = { pending: 'processing', paid: 'approved', declined: 'declined' } as const;
  type Kind = keyof typeof FONDY_STATUS;

  it('pays at most once, writes one transaction iff a paid event came, and only moves forward', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<'paid' | 'declined' | 'none'>('paid', 'declined', 'none'),
        fc.array(fc.nat({ max: 3 }), { minLength: 1, maxLength: 3 }),
        fc.nat(),
        async (outcome, copies, seed) => {
          const kinds: Kind[] = outcome === 'none' ? ['pending'] : ['pending', outcome];
          const events: Kind[] = kinds.flatMap((k, i) => Array.from({ length: 1 + (copies[i % copies.length] ?? 0) }, () => k));
          // Deterministic shuffle from the seed (fast-check shrinks it).
          let s = seed;
          for (let i = events.length - 1; i > 0; i -= 1) {
            s = (s * 1103515245 + 12345) % 2147483648;
            const j = s % (i + 1);
            [events[i], events[j]] = [events[j] as Kind, events[i] as Kind];
          }
          const order = await newOrder();
          const { paymentId } = await checkout('fondy', order.uid);
          for (const kind of events) {
            const res = await fondyCallback(paymentId, { order_status: FONDY_STATUS[kind], payment_id: `${paymentId}-${kind}` });
            expect(res.statusCode).toBe(200);
          }
          const after = await orderState(order.id);
          const [payment] = await t.db.query<{ state: string }>('SELECT state FROM payments WHERE id = $1', [paymentId]);
          expect(after.paidHistory).toBeLessThanOrEqual(1);
          expect(after.transactions).toBe(outcome === 'paid' ? 1 : 0);
          expect(after.status).toBe(outcome === 'paid' ? 2 : 1);
          expect(payment?.state).toBe(outcome === 'none' ? 'pending' : outcome);
          expect(after.pending).toBe(outcome === 'none');
        },
      ),
      { numRuns: 20 },
    );
  });

  it('with contradictory events the first terminal one wins, the order is paid at most once, and paid after declined is parked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray<Kind>(['pending', 'paid', 'declined', 'paid', 'declined', 'pending'], { minLength: 1 }),
        async (events) => {
          const order = await newOrder();
          const { paymentId } = await checkout('fondy', order.uid);
          for (const kind of events)
            await fondyCallback(paymentId, { order_status: FONDY_STATUS[kind], payment_id: `${paymentId}-${kind}` });
          const firstTerminal = events.find((k) => k !== 'pending');
          // ADR 0034: money that arrives after a decline is parked (recorded, not applied), never dropped.
          const paidLate = firstTerminal === 'declined' && events.includes('paid');
          const after = await orderState(order.id);
          const [payment] = await t.db.query<{ state: string }>('SELECT state FROM payments WHERE id = $1', [paymentId]);
          const [unapplied] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM unapplied_payments WHERE payment_id = $1', [
            paymentId,
          ]);
          expect(payment?.state).toBe(paidLate ? 'parked' : (firstTerminal ?? 'pending'));
          expect(after.transactions).toBe(firstTerminal === 'paid' ? 1 : 0);
          expect(after.paidHistory).toBe(firstTerminal === 'paid' ? 1 : 0);
          expect(after.status).toBe(firstTerminal === 'paid' ? 2 : 1);
          expect(unapplied?.n).toBe(paidLate ? 1 : 0);
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe('GET /api/en/orders/{id}/payment', () => {
  it("answers 'none' before any attempt and 'pending' while the buyer is at the provider", async () => {
    const order = await newOrder();
    expect((await paymentStatus(order.id)).json()).toEqual({ status: 'none', pending: false });
    await checkout('fondy', order.uid);
    expect((await paymentStatus(order.id)).json()).toEqual({ status: 'pending', pending: true });
  });

  it("answers 404 for another customer's order and 401 without a token", async () => {
    const order = await newOrder();
    expect((await paymentStatus(order.id, otherId)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/en/orders/${order.id}/payment` })).statusCode).toBe(401);
  });
});
