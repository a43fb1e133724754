import { describe, expect, it } from 'vitest';
import { defaultOrderForm, priceInputForCalcBody, priceInputForForm, toPriceCalcBody } from './index';
import { levelOf, toOrderBody } from './rules/index';
import { orderBodySchema } from './order-body';
import { priceCalcBodySchema, priceToWire } from './wire';

describe('the order body on the wire (SPEC §7, CONTRACT)', () => {
  it('sends extras as 1 off / 2 on and spacing as idSpacing', () => {
    const body = toOrderBody({ ...defaultOrderForm(1), premiumWriter: true, spacing: 1, subject: 4, title: 'Climate' }, 1);
    expect(body).toMatchObject({
      premiumWriter: 2,
      extraQualityCheck: 1,
      idSpacing: 1,
      topic: 'Climate',
      premiumSupport: false,
      academicLevel: 1,
    });
    expect(orderBodySchema.safeParse(body).success).toBe(true);
  });
  it.each([
    ['abc', "Writer's Choice"],
    ['  ab  ', "Writer's Choice"],
    ['', "Writer's Choice"],
    ['Climate', 'Climate'],
  ])("sends a title under 5 characters (%j) as 'Writer's Choice', the form keeping what was typed (SPEC §5)", (title, topic) => {
    expect(toOrderBody({ ...defaultOrderForm(1), title }, 1).topic).toBe(topic);
  });
  it.each([
    [1, 'academicLevel'],
    [3, 'resumeLevel'],
    [4, 'thesisLevel'],
  ])('names the level field of category %i %s', (category, field) => {
    const body = toOrderBody({ ...defaultOrderForm(category), level: 2 }, category);
    expect(body).toHaveProperty(field, 2);
    expect(levelOf(body, category)).toBe(2);
  });
  it('refuses premiumSupport true and extras outside 1 and 2', () => {
    const body = toOrderBody(defaultOrderForm(1), 1);
    expect(orderBodySchema.safeParse({ ...body, premiumSupport: true }).success).toBe(false);
    expect(priceCalcBodySchema.safeParse({ ...body, premiumWriter: 3 }).success).toBe(false);
  });
});

describe('price on the wire', () => {
  it('turns cents into amounts with 2 decimals', () => {
    const wire = priceToWire({
      basicPrice: 3897,
      pricePremiumWriter: 974,
      pricePreferedWriter: 0,
      priceExtraQualityCheck: 0,
      priceQuality: 0,
      priceOnePageSummary: 0,
      priceDiscount: 100,
      finalPrice: 4771,
    });
    expect(wire).toMatchObject({ basicPrice: 38.97, pricePremiumWriter: 9.74, priceDiscount: 1, finalPrice: 47.71 });
  });
});

describe("the wizard's price confirmation body (SPEC §7 PUT …/calcs)", () => {
  it.each([1, 3, 4, 5])('is a valid calcs body of category %i that prices exactly what the wizard prices', (category) => {
    const values = {
      ...defaultOrderForm(category),
      level: 2,
      pages: 3,
      spacing: 1 as const,
      premiumWriter: true,
      preferredWriters: [7],
      onePageSummary: true,
    };
    const body = toPriceCalcBody(values, category, { percent: 10, amount: 5.5 });
    const parsed = priceCalcBodySchema.parse(body);
    expect(priceInputForCalcBody(parsed, category)).toEqual(priceInputForForm(values, { percent: 10, amount: 550 }));
  });
  it('sends no discount as zeros, and the same values give the same JSON (a stable query key)', () => {
    const body = toPriceCalcBody(defaultOrderForm(1), 1, null);
    expect(body).toMatchObject({ discountAmount: 0, discountPercent: 0, academicLevel: 1 });
    expect(JSON.stringify(toPriceCalcBody({ ...defaultOrderForm(1) }, 1))).toBe(JSON.stringify(body));
  });
});
