import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse as Response } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MESSAGE, AUTH_RATE_LIMIT_PER_MINUTE, defaultOrderForm, ORDER_STATUS, ROUTE_RATE_LIMITS, toOrderBody } from '@app/domain';
import { buildTestApp, type TestApp } from './testing/build-test-app';
import { messageForm } from './testing/chat-fixtures';
import { insertCustomer, insertOrder } from './testing/factories';

/**
 * ADR 0073: every route that costs real work has a limit per account (or, without one, per order or
 * payment it works on): `max` requests pass, the next is 429 with Retry-After and CONTRACT's body, and
 * another account (order, payment, address) is not held back.
 */
let t: TestApp;
let filesDir: string;
let seq = 0;

beforeAll(async () => {
  filesDir = await mkdtemp(path.join(tmpdir(), 'route-limits-'));
  t = await buildTestApp({ env: { FILES_DIR: filesDir } });
});
afterAll(async () => {
  await t?.close();
  await rm(filesDir, { recursive: true, force: true });
});

interface Account {
  id: number;
  auth: { authorization: string };
  orderId: number;
  uid: string;
}
const account = async (): Promise<Account> => {
  seq += 1;
  const { id, token } = await insertCustomer(t, `limits-${seq}@example.com`);
  const order = await insertOrder(t.db, { customerId: id });
  return { id, auth: { authorization: `Bearer ${token}` }, orderId: order.id, uid: order.uid };
};

/** `max` requests answer one of `ok`; the next is 429 with Retry-After and the body; `other` still passes. */
const expectLimit = async ({
  max,
  send,
  other,
  ok,
}: {
  max: number;
  send: () => Promise<Response>;
  other: () => Promise<Response>;
  ok: number[];
}): Promise<void> => {
  for (let i = 0; i < max; i += 1) {
    const res = await send();
    if (!ok.includes(res.statusCode)) throw new Error(`request ${i + 1} of ${max} answered ${res.statusCode}: ${res.body}`);
  }
  const refused = await send();
  expect(refused.statusCode).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(refused.json()).toEqual({ message: AUTH_MESSAGE.tooManyRequests });
  expect(ok).toContain((await other()).statusCode);
};

const orderBody = toOrderBody({ ...defaultOrderForm(1), subject: 4, title: 'Limits of an essay', details: 'Edited again and again.' }, 1);

describe('per-account limits of the costly routes (ROUTE_RATE_LIMITS)', () => {
  it('PUT …/orders/{id}: order edits', async () => {
    const [a, b] = [await account(), await account()];
    const edit = (who: Account) => () =>
      t.app.inject({ method: 'PUT', url: `/api/en/sites/categories/1/orders/${who.orderId}`, headers: who.auth, payload: orderBody });
    await expectLimit({ max: ROUTE_RATE_LIMITS.orderEdit.max, send: edit(a), other: edit(b), ok: [200] });
  });

  it('GET …/orders/{id}/payment: the payment status (may ask the provider)', async () => {
    const [a, b] = [await account(), await account()];
    const status = (who: Account) => () => t.app.inject({ method: 'GET', url: `/api/en/orders/${who.orderId}/payment`, headers: who.auth });
    await expectLimit({ max: ROUTE_RATE_LIMITS.paymentStatus.max, send: status(a), other: status(b), ok: [200] });
  });

  it('GET …/customer/gdpr?id=: the personal-data report', async () => {
    const [a, b] = [await account(), await account()];
    const report = (who: Account) => () =>
      t.app.inject({ method: 'GET', url: `/api/en/customers/customer/gdpr?id=${who.id}`, headers: who.auth });
    await expectLimit({ max: ROUTE_RATE_LIMITS.personalDataReport.max, send: report(a), other: report(b), ok: [200] });
  });

  it('PUT …/customer/password: a password change (argon2 each time)', async () => {
    const [a, b] = [await account(), await account()];
    const change = (who: Account) => () =>
      t.app.inject({
        method: 'PUT',
        url: '/api/en/customers/customer/password',
        headers: who.auth,
        payload: { currentPassword: 'not-the-password', newPassword: 'a-new-password-1' },
      });
    await expectLimit({ max: ROUTE_RATE_LIMITS.passwordChange.max, send: change(a), other: change(b), ok: [400] });
  });

  it('GET /api/en/orders/files/{id}: file downloads', async () => {
    const [a, b] = [await account(), await account()];
    const BOUNDARY = '----limits-boundary';
    const fileOf = async (who: Account): Promise<number> => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/en/orders/${who.orderId}/customers/files`,
        headers: { ...who.auth, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nsome notes\r\n--${BOUNDARY}--\r\n`,
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ id: number }>().id;
    };
    const [fileA, fileB] = [await fileOf(a), await fileOf(b)];
    const download = (who: Account, fileId: number) => () =>
      t.app.inject({ method: 'GET', url: `/api/en/orders/files/${fileId}`, headers: who.auth });
    await expectLimit({ max: ROUTE_RATE_LIMITS.fileDownload.max, send: download(a, fileA), other: download(b, fileB), ok: [200] });
  });

  it('GET {chat}/api/customers/orders/{id}/messages/files/{fileId}: attachment downloads', async () => {
    const [a, b] = [await account(), await account()];
    const attachmentOf = async (who: Account): Promise<number> => {
      const form = messageForm({ direction: '2', message: JSON.stringify({ body: '' }) }, [
        { name: 'notes.txt', content: Buffer.from('hello') },
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: `/chat/api/customers/orders/${who.orderId}/messages`,
        headers: { ...who.auth, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode).toBe(200);
      return res.json<{ files: { id: number }[] }>().files[0]?.id ?? 0;
    };
    const [fileA, fileB] = [await attachmentOf(a), await attachmentOf(b)];
    const download = (who: Account, fileId: number) => () =>
      t.app.inject({ method: 'GET', url: `/chat/api/customers/orders/${who.orderId}/messages/files/${fileId}`, headers: who.auth });
    await expectLimit({ max: ROUTE_RATE_LIMITS.fileDownload.max, send: download(a, fileA), other: download(b, fileB), ok: [200] });
  });

  describe('receipts (ADR 0085)', () => {
    /** The account's order paid through the Fondy sandbox: the transaction that gets a receipt. */
    const paid = async (who: Account): Promise<{ transactionId: number; year: number }> => {
      const start = await t.app.inject({ method: 'GET', url: `/checkout/fondy/order/${who.uid}?hashDevice=limits` });
      const pay = await t.app.inject({ method: 'POST', url: `${new URL(String(start.headers.location), 'http://x').pathname}/pay` });
      expect(pay.headers.location).toBe(`/orderinfo/${who.orderId}/details?payment=success`);
      const list = await t.app.inject({ method: 'GET', url: '/api/en/customers/transactions', headers: who.auth });
      const [row] = list.json<{ transactions: { id: number }[] }>().transactions;
      const years = await t.app.inject({ method: 'GET', url: '/api/en/customers/receipts/years', headers: who.auth });
      return { transactionId: row?.id ?? 0, year: years.json<{ years: number[] }>().years[0] ?? 0 };
    };

    it('GET …/transactions/{id}/receipt: a PDF drawn per download', async () => {
      const [a, b] = [await account(), await account()];
      const [paidA, paidB] = [await paid(a), await paid(b)];
      const receipt = (who: Account, id: number) => () =>
        t.app.inject({ method: 'GET', url: `/api/en/customers/transactions/${id}/receipt`, headers: who.auth });
      await expectLimit({
        max: ROUTE_RATE_LIMITS.receiptDownload.max,
        send: receipt(a, paidA.transactionId),
        other: receipt(b, paidB.transactionId),
        ok: [200],
      });
    });

    it('GET …/receipts.zip?year=: a year of PDFs drawn and zipped', async () => {
      const [a, b] = [await account(), await account()];
      const [paidA, paidB] = [await paid(a), await paid(b)];
      const archive = (who: Account, year: number) => () =>
        t.app.inject({ method: 'GET', url: `/api/en/customers/receipts.zip?year=${year}`, headers: who.auth });
      await expectLimit({
        max: ROUTE_RATE_LIMITS.receiptsArchive.max,
        send: archive(a, paidA.year),
        other: archive(b, paidB.year),
        ok: [200],
      });
    });
  });
});

describe('ADR 0086: the upgrade of a paid order', () => {
  const paidAccount = async (): Promise<Account> => {
    seq += 1;
    const { id, token } = await insertCustomer(t, `limits-upgrade-${seq}@example.com`);
    const order = await insertOrder(t.db, { customerId: id, status: ORDER_STATUS.paid });
    return { id, auth: { authorization: `Bearer ${token}` }, orderId: order.id, uid: order.uid };
  };

  it('PUT …/orders/{id}/upgrade/calcs and POST …/orders/{id}/upgrade: per account', async () => {
    const [a, b] = [await paidAccount(), await paidAccount()];
    const make = (who: Account) => () =>
      t.app.inject({ method: 'POST', url: `/api/en/orders/${who.orderId}/upgrade`, headers: who.auth, payload: { pages: 3 } });
    await expectLimit({ max: ROUTE_RATE_LIMITS.upgradeCreate.max, send: make(a), other: make(b), ok: [200] });
    const quote = (who: Account) => () =>
      t.app.inject({ method: 'PUT', url: `/api/en/orders/${who.orderId}/upgrade/calcs`, headers: who.auth, payload: { pages: 3 } });
    await expectLimit({ max: ROUTE_RATE_LIMITS.upgradeQuote.max, send: quote(a), other: quote(b), ok: [200] });
  });

  it('GET /checkout/{system}/upgrade/{upgradeId}: checkout starts, per upgrade', async () => {
    const [a, b] = [await paidAccount(), await paidAccount()];
    const upgradeOf = async (who: Account) =>
      (
        (
          await t.app.inject({ method: 'POST', url: `/api/en/orders/${who.orderId}/upgrade`, headers: who.auth, payload: { pages: 3 } })
        ).json() as { upgradeId: string }
      ).upgradeId;
    const [ua, ub] = [await upgradeOf(a), await upgradeOf(b)];
    const start = (id: string) => () => t.app.inject({ method: 'GET', url: `/checkout/fondy/upgrade/${id}?hashDevice=limits` });
    await expectLimit({ max: ROUTE_RATE_LIMITS.checkoutStart.max, send: start(ua), other: start(ub), ok: [302] });
  });
});

describe('limits of the costly routes without an account', () => {
  it('GET /checkout/{system}/order/{uid} and /pp/sdk/redirect: checkout starts, one counter per order', async () => {
    const [a, b] = [await account(), await account()];
    let n = 0;
    // The two ways in share the order's counter: every other start goes through PayPal's SDK redirect.
    const start = (who: Account) => () => {
      n += 1;
      return t.app.inject({
        method: 'GET',
        url: n % 2 === 0 ? `/pp/sdk/redirect?uid=${who.uid}&hashDevice=limits` : `/checkout/fondy/order/${who.uid}?hashDevice=limits`,
      });
    };
    await expectLimit({ max: ROUTE_RATE_LIMITS.checkoutStart.max, send: start(a), other: start(b), ok: [302] });
  });

  it("GET /pp/sdk/return: PayPal's return (a capture call), per payment attempt", async () => {
    const paymentId = () => randomBytes(18).toString('base64url');
    const [first, second] = [paymentId(), paymentId()];
    const back = (id: string) => () => t.app.inject({ method: 'GET', url: `/pp/sdk/return?payment=${id}` });
    await expectLimit({ max: ROUTE_RATE_LIMITS.paymentReturn.max, send: back(first), other: back(second), ok: [404] });
  });

  it('PUT /api/en/auth/password/reset: a reset (argon2 before the token is looked up), per client address', async () => {
    const reset = (ip: string) => () =>
      t.app.inject({
        method: 'PUT',
        url: '/api/en/auth/password/reset',
        remoteAddress: ip,
        payload: { token: 'not-a-reset-token', password: 'a-new-password-1' },
      });
    await expectLimit({ max: AUTH_RATE_LIMIT_PER_MINUTE, send: reset('198.51.100.7'), other: reset('198.51.100.8'), ok: [400] });
  });
});
