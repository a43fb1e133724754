import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOUNT_MESSAGE } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer } from '../../testing/factories';

let t: TestApp;
let ownerId: number;
let ownerToken: string;
let otherToken: string;

beforeAll(async () => {
  t = await buildTestApp();
  const first = await insertCustomer(t, 'owner@example.com');
  ownerId = first.id;
  ownerToken = first.token;
  otherToken = (await insertCustomer(t, 'stranger@example.com')).token;
  await t.db.query(`INSERT INTO discount_codes (code, percent, amount_cents, customer_id) VALUES ('LOYAL-7', 7, 250, $1)`, [ownerId]);
});
afterAll(async () => {
  await t.close();
});

const multipart = (fields: Record<string, string>) => {
  const boundary = '----test-boundary-7d1';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { payload: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
};
const apply = (code: string, headers: Record<string, string> = {}, ip = '10.0.0.1') => {
  const form = multipart({ code });
  return t.app.inject({
    method: 'POST',
    url: '/api/en/orders/discounts/apply',
    payload: form.payload,
    headers: { ...form.headers, ...headers },
    remoteAddress: ip,
  });
};

describe('POST /api/en/orders/discounts/apply', () => {
  it('answers the code, amount, percent and top-writer flag without a token', async () => {
    const res = await apply('WELCOME10');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ code: 'WELCOME10', amount: 0, percent: 10, isTopWriterDiscount: false });
    expect((await apply('topwriter20', {}, '10.0.0.2')).json()).toEqual({
      code: 'TOPWRITER20',
      amount: 0,
      percent: 20,
      isTopWriterDiscount: true,
    });
  });

  it('accepts urlencoded and JSON bodies too, and strips HTML from the code', async () => {
    const urlencoded = await t.app.inject({
      method: 'POST',
      url: '/api/en/orders/discounts/apply',
      remoteAddress: '10.0.0.3',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'code=%3Cb%3EWELCOME10%3C%2Fb%3E',
    });
    expect(urlencoded.json()).toMatchObject({ code: 'WELCOME10' });
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/en/orders/discounts/apply',
      remoteAddress: '10.0.0.3',
      payload: { code: ' welcome10 ' },
    });
    expect(json.json()).toMatchObject({ code: 'WELCOME10' });
  });

  it.each(['', '   ', '<b></b>'])('answers errors.code "Please enter your discount" for %j', async (code) => {
    const res = await apply(code, {}, '10.0.0.4');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: DISCOUNT_MESSAGE.empty, errors: { code: ['Please enter your discount'] } });
  });

  it('answers errors.code "Invalid discount code" for an unknown or inactive code', async () => {
    await t.db.query(`INSERT INTO discount_codes (code, percent, active) VALUES ('EXPIRED15', 15, false)`);
    for (const code of ['NOSUCHCODE', 'EXPIRED15']) {
      const res = await apply(code, {}, '10.0.0.5');
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ code: ['Invalid discount code'] });
    }
  });

  it("lets a customer apply their own code, and nobody else's", async () => {
    expect((await apply('LOYAL-7', { authorization: `Bearer ${ownerToken}` }, '10.0.0.6')).json()).toEqual({
      code: 'LOYAL-7',
      amount: 2.5,
      percent: 7,
      isTopWriterDiscount: false,
    });
    expect((await apply('LOYAL-7', { authorization: `Bearer ${otherToken}` }, '10.0.0.6')).statusCode).toBe(422);
    expect((await apply('LOYAL-7', {}, '10.0.0.6')).statusCode).toBe(422);
  });

  it('limits 10 requests a minute per IP, then 429 with Retry-After', async () => {
    const answers = [];
    for (let i = 0; i < 11; i += 1) answers.push(await apply('WELCOME10', {}, '10.9.9.9'));
    expect(answers.slice(0, 10).every((a) => a.statusCode === 200)).toBe(true);
    expect(answers[10]?.statusCode).toBe(429);
    expect(answers[10]?.headers['retry-after']).toBeDefined();
  });
});

describe('GET /api/en/orders/discounts', () => {
  it("lists the customer's own codes only", async () => {
    const mine = await t.app.inject({ method: 'GET', url: '/api/en/orders/discounts', headers: { authorization: `Bearer ${ownerToken}` } });
    expect(mine.json()).toEqual({ discounts: [{ code: 'LOYAL-7', amount: 2.5, percent: 7, isTopWriterDiscount: false }] });
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/en/orders/discounts',
      headers: { authorization: `Bearer ${otherToken}` },
    });
    expect(theirs.json()).toEqual({ discounts: [] });
  });

  it('needs a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/en/orders/discounts' })).statusCode).toBe(401);
  });
});
