import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calculatePrice,
  calcsSchema,
  defaultOrderForm,
  DISCOUNT_MESSAGE,
  ORDER_FORM_MESSAGE,
  ROLE,
  toOrderBody,
  toPriceTable,
  WRITERS_CHOICE_TITLE,
  type OrderBody,
  type OrderFormValues,
  type PriceInput,
} from '@app/domain';
import { createAccessTokens } from '../auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer } from '../../testing/factories';

let t: TestApp;
let customerToken: string;
let customerId: number;
let otherToken: string;

const newCustomer = async (email: string): Promise<number> => (await insertCustomer(t, email)).id;

beforeAll(async () => {
  t = await buildTestApp();
  const tokens = createAccessTokens(t.config.jwtSecret ?? '', t.clock);
  customerId = await newCustomer('creator@example.com');
  customerToken = await tokens.sign({ userId: customerId, role: ROLE.customer });
  otherToken = await tokens.sign({ userId: await newCustomer('someone.else@example.com'), role: ROLE.customer });
});
afterAll(async () => {
  await t.close();
});

const values = (category: number, overrides: Partial<OrderFormValues> = {}): OrderFormValues => ({
  ...defaultOrderForm(category),
  subject: 4,
  title: 'The Economics of Renewable Energy',
  details: 'Compare solar and wind costs since 2010.',
  ...overrides,
});
const body = (category = 1, overrides: Partial<OrderFormValues> = {}, raw: Partial<OrderBody> = {}): OrderBody => ({
  ...toOrderBody(values(category, overrides), category),
  ...raw,
});

const create = (payload: unknown, opts: { category?: number | string; token?: string; key?: string } = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/en/sites/categories/${opts.category ?? 1}/orders`,
    headers: {
      authorization: `Bearer ${opts.token ?? customerToken}`,
      ...(opts.key ? { 'idempotency-key': opts.key } : {}),
    },
    payload: payload as Record<string, unknown>,
  });

interface StoredOrder {
  id: number;
  uid: string;
  customer_id: number;
  status_id: number;
  title: string;
  description: string;
  credentials: string;
  paper_type_id: number;
  spacing: number;
  one_page_summary: boolean;
  extra_quality_check: boolean;
  basic_price_cents: number;
  final_price_cents: number;
  discount_cents: number;
  discount_code: string | null;
  price_breakdown: Record<string, number>;
  deadline: Date;
  premium_writer: boolean;
}
const stored = async (id: number): Promise<StoredOrder> => {
  const [row] = await t.db.query<StoredOrder>('SELECT * FROM orders WHERE id = $1', [id]);
  if (!row) throw new Error(`order ${id} not stored`);
  return row;
};
const orderCount = async (): Promise<number> =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE customer_id = $1', [customerId]))[0]?.n ?? -1;

/** The price the wizard shows: the domain function over the tables GET …/calcs serves. */
const domainPrice = async (category: number, input: PriceInput) => {
  const calcs = calcsSchema.parse((await t.app.inject({ method: 'GET', url: `/api/en/sites/categories/${category}/orders/calcs` })).json());
  const result = calculatePrice(toPriceTable(calcs), input);
  if (!result.ok) throw new Error(result.reason);
  return result.price;
};
const baseInput: PriceInput = {
  workType: 1,
  level: 1,
  urgency: 240,
  pages: 1,
  spacing: 2,
  premiumWriter: false,
  preferredWriter: false,
  extraQualityCheck: false,
  originalityReport: false,
  onePageSummary: false,
};

describe('POST …/orders creates an order', () => {
  it('answers {id, uid}, stores status 1 with its history and the price of the domain function in cents', async () => {
    const res = await create(body(1, { pages: 3, level: 2, premiumWriter: true, originalityReport: true }));
    expect(res.statusCode).toBe(200);
    const { id, uid } = res.json() as { id: number; uid: string };
    expect(uid).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    const order = await stored(id);
    expect(order).toMatchObject({
      customer_id: customerId,
      status_id: 1,
      title: 'The Economics of Renewable Energy',
      premium_writer: true,
    });
    const expected = await domainPrice(1, { ...baseInput, level: 2, pages: 3, premiumWriter: true, originalityReport: true });
    expect(order.basic_price_cents).toBe(expected.basicPrice);
    expect(order.final_price_cents).toBe(expected.finalPrice);
    expect(order.price_breakdown).toEqual(expected);
    expect(order.deadline.getTime()).toBe(t.clock.now().getTime() + 240 * 3600 * 1000);
    const history = await t.db.query<{ status_id: number; changed_by: number }>(
      'SELECT status_id, changed_by FROM order_status_history WHERE order_id = $1',
      [id],
    );
    expect(history).toEqual([{ status_id: 1, changed_by: customerId }]);
  });

  it('requires a customer token (visitors sign in first)', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/en/sites/categories/1/orders', payload: body() });
    expect(res.statusCode).toBe(401);
  });

  it('answers 404 for a category the site does not offer', async () => {
    expect((await create(body(), { category: 2 })).statusCode).toBe(404);
    expect((await create(body(), { category: 'x' })).statusCode).toBe(404);
  });

  it('applies a discount code, capped by maxAmountDiscount, and stores what it took off', async () => {
    const res = await create(body(1, { discountCode: ' welcome10 ', pages: 2 }));
    expect(res.statusCode).toBe(200);
    const order = await stored(res.json().id);
    const expected = await domainPrice(1, { ...baseInput, pages: 2, discount: { percent: 10, amount: 0 } });
    expect(order.discount_code).toBe('WELCOME10');
    expect(order.discount_cents).toBe(expected.priceDiscount);
    expect(order.discount_cents).toBeGreaterThan(0);
    expect(order.final_price_cents).toBe(expected.finalPrice);

    // 20 % of a large order is more than $100.00: the discount stops at the cap.
    const big = await create(body(4, { pages: 100, urgency: 12, level: 3, premiumWriter: true, discountCode: 'TOPWRITER20' }), {
      category: 4,
    });
    expect(big.statusCode).toBe(200);
    expect((await stored(big.json().id)).discount_cents).toBe(10_000);
  });
});

describe('SPEC §8 order creation errors', () => {
  it('an unknown discount code is a discountCode error', async () => {
    const res = await create(body(1, { discountCode: 'NOPE' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ discountCode: [DISCOUNT_MESSAGE.invalid] });
  });

  it('a top-writer discount without the premium writer asks for the Top Writer feature', async () => {
    const res = await create(body(1, { discountCode: 'TOPWRITER20', premiumWriter: false }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ discountCode: ['Please enable Top Writer feature to use this discount'] });
  });

  it('an inactive code is refused', async () => {
    await t.db.query(`INSERT INTO discount_codes (code, percent, active) VALUES ('OLD5', 5, false)`);
    expect((await create(body(1, { discountCode: 'OLD5' }))).json().errors).toEqual({ discountCode: [DISCOUNT_MESSAGE.invalid] });
  });

  it('a title over 250 characters is a topic error', async () => {
    const res = await create(body(1, { title: 'a'.repeat(251) }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ topic: [ORDER_FORM_MESSAGE.invalidTitle] });
  });

  it.each<[string, Partial<OrderFormValues>, string, string]>([
    ['topic', { title: `<i>${'a'.repeat(998)}` }, 'topic', ORDER_FORM_MESSAGE.invalidTitle],
    ['details', { details: `<p>${'a'.repeat(19_998)}` }, 'paperDetails', ORDER_FORM_MESSAGE.detailsTooLong],
    ['credentials', { credentials: `<p>${'a'.repeat(1_998)}` }, 'credentials', ORDER_FORM_MESSAGE.credentialsTooLong],
    ['discount code', { discountCode: `<b>${'A'.repeat(62)}` }, 'discountCode', DISCOUNT_MESSAGE.invalid],
  ])('ADR 0067: a raw %s one past its cap is refused with its text before any work', async (_name, values, field, message) => {
    const before = await orderCount();
    const res = await create(body(1, values));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ [field]: [message] });
    expect(await orderCount()).toBe(before);
  });

  it.each(['too short', '<b>short</b> ', '   abc   '])('details %j are a paperDetails error', async (details) => {
    const res = await create(body(1, { details }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ paperDetails: ['Paper Details must be empty or contain at least 10 characters'] });
  });

  it('empty details are allowed (files come after the order)', async () => {
    expect((await create(body(1, { details: '' }))).statusCode).toBe(200);
  });

  it('reports several errors at once, each under its field', async () => {
    const res = await create(body(1, { details: 'short', title: 'b'.repeat(300), discountCode: 'NOPE' }));
    expect(Object.keys(res.json().errors).sort()).toEqual(['discountCode', 'paperDetails', 'topic']);
    expect(res.json().message).toEqual(expect.any(String));
  });

  it('creates nothing when it refuses', async () => {
    const before = await orderCount();
    await create(body(1, { discountCode: 'NOPE' }));
    await create(body(1, { details: 'short' }));
    expect(await orderCount()).toBe(before);
  });
});

describe('server-side checks of every field', () => {
  it.each<[string, Partial<OrderFormValues>, Partial<OrderBody>, string]>([
    ['a level outside the category list', {}, { academicLevel: 9 }, 'academicLevel'],
    ['the wrong level field for resumes', {}, { academicLevel: 1, resumeLevel: undefined }, 'resumeLevel'],
    ['an unknown work type', {}, { idWorkType: 9 }, 'idWorkType'],
    ['an unknown paper type', {}, { paperType: 999 }, 'paperType'],
    ['an unknown paper format', {}, { paperFormat: 999 }, 'paperFormat'],
    ['an unknown subject', {}, { subject: 9999 }, 'subject'],
    ['no subject', {}, { subject: null }, 'subject'],
    ['an urgency the site does not offer', {}, { urgency: 100 }, 'urgency'],
    ['12 hours at PhD level (options 3 and 6 disabled)', { level: 5, urgency: 12 }, {}, 'urgency'],
    ['an unknown preferred writer', {}, { preferredWriterList: [999_999] }, 'preferredWriterList'],
  ])('refuses %s', async (name, overrides, raw, field) => {
    const category = name.includes('resumes') ? 3 : 1;
    const payload = category === 3 ? { ...body(3, { resumeService: 1 }), ...raw } : body(1, overrides, raw);
    const res = await create(payload, { category });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toContain(field);
  });

  it('refuses 11 pages for a resume and requires a resume service', async () => {
    const res = await create(body(3, { pages: 11 }), { category: 3 });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['pages', 'resumeService']);
  });

  it('creates a resume order: no title, resume level, resume service, no paper format', async () => {
    const res = await create(body(3, { resumeService: 2, level: 4, title: 'Ignored for resumes' }), { category: 3 });
    expect(res.statusCode).toBe(200);
    const order = await stored(res.json().id);
    expect(order.title).toBe('');
    expect(order.paper_type_id).toBe(71);
  });

  it('strips HTML from topic, details and credentials', async () => {
    const res = await create(
      body(1, {
        title: '<script>alert(1)</script>Climate <b>policy</b> in the EU',
        details: '<p>Use <i>peer-reviewed</i> sources only.</p>',
        credentials: '<img src=x onerror=alert(1)>login: student',
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(await stored(res.json().id)).toMatchObject({
      title: 'alert(1)Climate policy in the EU',
      description: 'Use peer-reviewed sources only.',
      credentials: 'login: student',
    });
  });

  it('strips nested and broken tags until none is left (ADR 0039)', async () => {
    const res = await create(
      body(1, {
        title: 'Climate <<b>img src=x onerror=alert(1)> policy',
        details: 'Sources: <scr<script>ipt>alert(1)</scr</script>ipt> only',
        credentials: 'login <a<b>: student',
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(await stored(res.json().id)).toMatchObject({
      title: 'Climate  policy',
      description: 'Sources: ipt>alert(1)ipt> only',
      credentials: 'login : student',
    });
  });

  it("turns a title under 5 characters into Writer's Choice", async () => {
    for (const title of ['', 'Abc', '<b>ab</b>']) {
      const res = await create(body(1, { title }));
      expect(res.statusCode).toBe(200);
      expect((await stored(res.json().id)).title).toBe(WRITERS_CHOICE_TITLE);
    }
  });

  it('applies the presentation dependencies: paper type 17, double spacing, no one-page summary', async () => {
    const res = await create(body(1, { workType: 3, paperType: 1, spacing: 1, onePageSummary: true, pages: 4 }));
    expect(res.statusCode).toBe(200);
    const order = await stored(res.json().id);
    expect(order).toMatchObject({ paper_type_id: 17, spacing: 2, one_page_summary: false });
    expect(order.final_price_cents).toBe((await domainPrice(1, { ...baseInput, workType: 3, pages: 4 })).finalPrice);
  });

  it('forces the extra quality check off under 24 hours', async () => {
    const res = await create(body(1, { urgency: 12, extraQualityCheck: true }));
    expect(res.statusCode).toBe(200);
    expect((await stored(res.json().id)).extra_quality_check).toBe(false);
  });
});

describe('Idempotency-Key (CONTRACT)', () => {
  it('answers the first order again for the same key and body, creating nothing', async () => {
    const first = await create(body(), { key: 'key-same-1' });
    const before = await orderCount();
    const again = await create(body(), { key: 'key-same-1' });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(await orderCount()).toBe(before);
  });

  it('answers 422 for the same key with another body', async () => {
    await create(body(), { key: 'key-other-body' });
    const before = await orderCount();
    const res = await create(body(1, { pages: 5 }), { key: 'key-other-body' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: expect.any(String) });
    expect(await orderCount()).toBe(before);
  });

  it('keeps keys per customer: another customer may use the same key', async () => {
    const mine = await create(body(), { key: 'shared-key' });
    const theirs = await create(body(), { key: 'shared-key', token: otherToken });
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().id).not.toBe(mine.json().id);
  });

  it('creates one order for concurrent identical requests', async () => {
    const before = await orderCount();
    const answers = await Promise.all(Array.from({ length: 5 }, () => create(body(1, { pages: 7 }), { key: 'key-concurrent' })));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(await orderCount()).toBe(before + 1);
  });

  it('creates a new order for every request without a key', async () => {
    const before = await orderCount();
    await create(body());
    await create(body());
    expect(await orderCount()).toBe(before + 2);
  });
});
