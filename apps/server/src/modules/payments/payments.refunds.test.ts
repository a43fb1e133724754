import { createSign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE, type PaymentSystem } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertOrder } from '../../testing/factories';
import { createAccessTokens } from '../auth';
import { fondySignature } from './providers/fondy/fondy.adapter';
import { paycoreSignature } from './providers/paycore/paycore.adapter';
import { paymentwallSignature } from './providers/paymentwall/paymentwall.adapter';
import { paypalSignedMessage } from './providers/paypal/paypal.adapter';

/**
 * ADR 0036: a provider refund or chargeback moves the order to refunded (7)
 * and writes exactly one refund per provider event; a staff refund and a provider refund of the same
 * payment, or two concurrent staff refunds, write one.
 */

let t: TestApp;
let customerId: number;
let support: string;
let seq = 0;

const CHECKOUT: Record<PaymentSystem, (uid: string) => string> = {
  fondy: (uid) => `/checkout/fondy/order/${uid}?hashDevice=d`,
  paymentwall: (uid) => `/checkout/paymentwall/order/${uid}?hashDevice=d`,
  paycore: (uid) => `/checkout/paycoreio/order/${uid}?hashDevice=d`,
  paypal: (uid) => `/pp/sdk/redirect?uid=${uid}&hashDevice=d`,
};

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  const [c] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES (1, 'refunded@example.com', 'x', 1) RETURNING id`,
  );
  const [s] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES (6, 'refund.support@example.com', 'x', 1) RETURNING id`,
  );
  if (!c || !s) throw new Error('no users');
  customerId = c.id;
  support = await tokens.sign({ userId: s.id, role: ROLE.support });
});
afterAll(async () => {
  await t.close();
});

/** An order paid through the sandbox of `provider`: its id and the paid attempt. */
const paidOrder = async (provider: PaymentSystem) => {
  seq += 1;
  const uid = `refund-${String(seq).padStart(4, '0')}-abcdefghijklmnop`;
  const row = await insertOrder(t.db, { uid, customerId, title: 'Refunded essay' });
  const res = await t.app.inject({ method: 'GET', url: CHECKOUT[provider](uid) });
  const path = new URL(String(res.headers.location)).pathname;
  const pay = await t.app.inject({ method: 'POST', url: `${path}/pay` });
  expect(pay.headers.location).toBe(`/orderinfo/${row.id}/details?payment=success`);
  return { orderId: row.id, uid, paymentId: path.split('/').at(-1) ?? '' };
};

const secret = async (name: string) =>
  (await t.db.query<{ value: string }>('SELECT value FROM app_secrets WHERE name = $1', [name]))[0]?.value ?? '';

/** The refund or chargeback message each provider sends, signed as it signs (the sandbox keys). */
const REFUND: Record<
  PaymentSystem,
  (
    paymentId: string,
    eventRef: string,
  ) => Promise<{ url: string; method: 'GET' | 'POST'; headers: Record<string, string>; payload: string }>
> = {
  fondy: async (paymentId, eventRef) => {
    const fields: Record<string, string> = {
      order_id: paymentId,
      merchant_id: '1396424',
      amount: '2400',
      reversal_amount: '2400',
      currency: 'USD',
      order_status: 'reversed',
      response_status: 'success',
      payment_id: eventRef,
    };
    fields.signature = fondySignature(fields, await secret('payments_sandbox_fondy'));
    return {
      url: '/api/payments/fondy/callback',
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    };
  },
  paymentwall: async (paymentId, eventRef) => {
    // Pingback type 2: a negative pingback (chargeback or refund).
    const params: Record<string, string> = {
      uid: String(customerId),
      goodsid: paymentId,
      type: '2',
      ref: eventRef,
      reason: '2',
      sign_version: '3',
    };
    params.sig = paymentwallSignature(params, await secret('payments_sandbox_paymentwall'), 3);
    return { url: `/api/payments/paymentwall/callback?${new URLSearchParams(params).toString()}`, method: 'GET', headers: {}, payload: '' };
  },
  paycore: async (paymentId, eventRef) => {
    const body = JSON.stringify({
      data: {
        type: 'payment-invoices',
        id: eventRef,
        attributes: { status: 'refunded', amount: 24, currency: 'USD', reference_id: paymentId },
      },
    });
    return {
      url: '/api/payments/paycore/callback',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-signature': paycoreSignature(body, await secret('payments_sandbox_paycore')) },
      payload: body,
    };
  },
  paypal: async (paymentId, eventRef) => {
    const keys = JSON.parse(await secret('payments_sandbox_paypal_keys')) as { privateKey: string };
    const body = JSON.stringify({
      id: `WH-${eventRef}`,
      event_type: 'PAYMENT.CAPTURE.REVERSED',
      resource: { id: `R-${eventRef}`, status: 'COMPLETED', amount: { currency_code: 'USD', value: '24.00' }, custom_id: paymentId },
    });
    const transmissionId = `t-${eventRef}`;
    const time = '2026-01-02T03:04:05Z';
    const sig = createSign('RSA-SHA256')
      .update(paypalSignedMessage(transmissionId, time, 'SANDBOX-WEBHOOK', body))
      .sign(keys.privateKey, 'base64');
    return {
      url: '/api/payments/paypal/callback',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': 'sandbox',
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-sig': sig,
        'paypal-transmission-time': time,
      },
      payload: body,
    };
  },
};
const sendRefund = async (provider: PaymentSystem, paymentId: string, eventRef: string) => {
  const r = await REFUND[provider](paymentId, eventRef);
  const res = await t.app.inject({
    method: r.method,
    url: r.url,
    headers: r.headers,
    ...(r.method === 'POST' ? { payload: r.payload } : {}),
  });
  expect(res.statusCode).toBe(200);
};

const ledger = async (orderId: number) => {
  const [o] = await t.db.query<{ status_id: number }>('SELECT status_id FROM orders WHERE id = $1', [orderId]);
  const refunds = await t.db.query<{ amount_cents: number }>(
    `SELECT amount_cents FROM transactions WHERE order_id = $1 AND type = 'refund'`,
    [orderId],
  );
  const [h] = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM order_status_history WHERE order_id = $1 AND status_id = 7', [
    orderId,
  ]);
  return { status: o?.status_id, refunds, refundedHistory: h?.n };
};

const setStatus = (orderId: number, status: number) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/staff/orders/${orderId}/status`,
    headers: { authorization: `Bearer ${support}` },
    payload: { status, reason: 'Refund asked by the customer' },
  });

describe.each(['fondy', 'paymentwall', 'paycore', 'paypal'] as const)('a %s refund or chargeback event', (provider) => {
  it('moves the paid order to refunded (7) and writes one refund, however often the event is delivered', async () => {
    const order = await paidOrder(provider);
    for (let i = 0; i < 3; i += 1) await sendRefund(provider, order.paymentId, `${provider}-ev-${seq}`);
    expect(await ledger(order.orderId)).toEqual({ status: 7, refunds: [{ amount_cents: 2400 }], refundedHistory: 1 });
    const [payment] = await t.db.query<{ state: string }>('SELECT state FROM payments WHERE id = $1', [order.paymentId]);
    expect(payment?.state).toBe('refunded');
    // The refund of a sandbox payment is marked as one, like the payment.
    const marks = await t.db.query<{ type: string; sandbox: boolean }>(
      'SELECT type, sandbox FROM transactions WHERE order_id = $1 ORDER BY id',
      [order.orderId],
    );
    expect(marks).toEqual([
      { type: 'payment', sandbox: true },
      { type: 'refund', sandbox: true },
    ]);
  });
});

describe('one refund per payment, whoever reports it', () => {
  it('a staff refund, then the provider refund of the same payment: one refund row', async () => {
    const order = await paidOrder('fondy');
    expect((await setStatus(order.orderId, 7)).statusCode).toBe(200);
    await sendRefund('fondy', order.paymentId, `after-staff-${seq}`);
    expect(await ledger(order.orderId)).toEqual({ status: 7, refunds: [{ amount_cents: 2400 }], refundedHistory: 1 });
  });

  // ADR 0071 changed this on purpose: 7 is final, support can neither move it away nor refund it again.
  it('the provider refund, then support tries to move the order away and to refund it again: refused, one refund row', async () => {
    const order = await paidOrder('paycore');
    await sendRefund('paycore', order.paymentId, `before-staff-${seq}`);
    expect((await setStatus(order.orderId, 3)).statusCode).toBe(409);
    expect((await setStatus(order.orderId, 7)).statusCode).toBe(409);
    const after = await ledger(order.orderId);
    expect(after.status).toBe(7);
    expect(after.refunds).toHaveLength(1);
  });

  it('two concurrent staff refunds: one wins, the others are refused (409); one refund row and one history entry', async () => {
    const order = await paidOrder('paymentwall');
    const answers = await Promise.all(Array.from({ length: 5 }, () => setStatus(order.orderId, 7)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await ledger(order.orderId)).toEqual({ status: 7, refunds: [{ amount_cents: 2400 }], refundedHistory: 1 });
  });

  it('a refund of one of two paid attempts leaves the order paid (the other payment stands)', async () => {
    const order = await paidOrder('fondy');
    // A second attempt paid as well (two tabs): recorded, the order moved once.
    await t.db.query(`UPDATE orders SET status_id = 1 WHERE id = $1`, [order.orderId]);
    const res = await t.app.inject({ method: 'GET', url: CHECKOUT.paycore(order.uid) });
    const second = new URL(String(res.headers.location)).pathname;
    await t.app.inject({ method: 'POST', url: `${second}/pay` });
    await sendRefund('fondy', order.paymentId, `duplicate-${seq}`);
    const after = await ledger(order.orderId);
    expect(after.status).toBe(2);
    expect(after.refunds).toHaveLength(1);
  });
});

describe('late events', () => {
  it('a refund that arrives before the payment applies once the payment does: the order ends refunded, one payment, one refund', async () => {
    seq += 1;
    const uid = `refund-late-${String(seq).padStart(4, '0')}-abcdefghijk`;
    const row = await insertOrder(t.db, { uid, customerId, title: 'Refund before payment' });
    const res = await t.app.inject({ method: 'GET', url: CHECKOUT.paycore(uid) });
    const paymentId = new URL(String(res.headers.location)).pathname.split('/').at(-1) ?? '';
    await sendRefund('paycore', paymentId, `early-${seq}`);
    expect((await ledger(row.id)).status).toBe(1);

    const body = JSON.stringify({
      data: {
        type: 'payment-invoices',
        id: `early-${seq}`,
        attributes: { status: 'processed', amount: 24, currency: 'USD', reference_id: paymentId },
      },
    });
    const paid = await t.app.inject({
      method: 'POST',
      url: '/api/payments/paycore/callback',
      headers: { 'content-type': 'application/json', 'x-signature': paycoreSignature(body, await secret('payments_sandbox_paycore')) },
      payload: body,
    });
    expect(paid.statusCode).toBe(200);
    expect(await ledger(row.id)).toEqual({ status: 7, refunds: [{ amount_cents: 2400 }], refundedHistory: 1 });
    const [payments] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transactions WHERE order_id = $1 AND type = 'payment'`,
      [row.id],
    );
    expect(payments?.n).toBe(1);
    const [payment] = await t.db.query<{ state: string }>('SELECT state FROM payments WHERE id = $1', [paymentId]);
    expect(payment?.state).toBe('refunded');
  });
});
