import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Calcs } from '../catalogue/index';
import { priceToWire } from '../order-form/wire';
import { calculatePrice, priceFromWire, samePrice, toPriceTable, type PriceInput } from './index';

const calcs: Calcs = {
  siteCategory: 1,
  currency: 'USD',
  rates: [
    { idWorkType: 1, idLevel: 2, urgency: 240, pricePerPage: 12.99 },
    { idWorkType: 1, idLevel: 2, urgency: 24, pricePerPage: 24.5 },
    { idWorkType: 2, idLevel: 2, urgency: 240, pricePerPage: 7.15 },
  ],
  extras: [
    { key: 'premiumWriter', kind: 'percent', value: 25 },
    { key: 'preferredWriter', kind: 'percent', value: 10 },
    { key: 'extraQualityCheck', kind: 'flat', value: 15 },
    { key: 'originalityReport', kind: 'flat', value: 9.99 },
    { key: 'onePageSummary', kind: 'flat', value: 17.99 },
  ],
  maxAmountDiscount: 100,
};
const table = toPriceTable(calcs);
const base: PriceInput = {
  workType: 1,
  level: 2,
  urgency: 240,
  pages: 3,
  spacing: 2,
  premiumWriter: false,
  preferredWriter: false,
  extraQualityCheck: false,
  originalityReport: false,
  onePageSummary: false,
};
const price = (input: Partial<PriceInput>) => {
  const result = calculatePrice(table, { ...base, ...input });
  if (!result.ok) throw new Error(result.reason);
  return result.price;
};

describe('basic price is the page rate times the pages', () => {
  it('charges 3 double-spaced pages at $12.99', () => {
    expect(price({}).basicPrice).toBe(3897);
    expect(price({}).finalPrice).toBe(3897);
  });
  it('counts single-spaced pages double (SPEC §3: 300 words a page)', () => {
    expect(price({ spacing: 1 }).basicPrice).toBe(2 * 3897);
  });
  it('uses the rate of the chosen urgency and work type', () => {
    expect(price({ urgency: 24, pages: 1 }).basicPrice).toBe(2450);
    expect(price({ workType: 2, pages: 1 }).basicPrice).toBe(715);
  });
  it('answers no-rate for a combination the table lacks', () => {
    expect(calculatePrice(table, { ...base, level: 9 })).toEqual({ ok: false, reason: 'no-rate' });
  });
  it('refuses zero, fractional pages and unknown spacing', () => {
    expect(calculatePrice(table, { ...base, pages: 0 })).toEqual({ ok: false, reason: 'bad-input' });
    expect(calculatePrice(table, { ...base, pages: 1.5 })).toEqual({ ok: false, reason: 'bad-input' });
  });
});

describe('extras are a share of the basic price or a flat amount', () => {
  it('prices each extra on its own line', () => {
    const p = price({ premiumWriter: true, preferredWriter: true, extraQualityCheck: true, originalityReport: true, onePageSummary: true });
    expect(p.pricePremiumWriter).toBe(974); // 25 % of 38.97, half up
    expect(p.pricePreferedWriter).toBe(390);
    expect(p.priceExtraQualityCheck).toBe(1500);
    expect(p.priceQuality).toBe(999);
    expect(p.priceOnePageSummary).toBe(1799);
    expect(p.finalPrice).toBe(3897 + 974 + 390 + 1500 + 999 + 1799);
  });
  it('charges nothing for an extra that is off', () => {
    const p = price({});
    expect([p.pricePremiumWriter, p.pricePreferedWriter, p.priceExtraQualityCheck, p.priceQuality, p.priceOnePageSummary]).toEqual([
      0, 0, 0, 0, 0,
    ]);
  });
});

describe('discount', () => {
  it('takes a percent of the whole order', () => {
    expect(price({ discount: { percent: 10, amount: 0 } }).priceDiscount).toBe(390);
  });
  it('takes a fixed amount', () => {
    expect(price({ discount: { percent: 0, amount: 500 } }).finalPrice).toBe(3397);
  });
  it('is never more than maxAmountDiscount', () => {
    expect(price({ pages: 50, discount: { percent: 50, amount: 0 } }).priceDiscount).toBe(10000);
  });
  it('never makes the order negative', () => {
    expect(price({ pages: 1, discount: { percent: 0, amount: 5000 } }).finalPrice).toBe(0);
  });
});

describe('price properties', () => {
  const inputs = fc.record({
    workType: fc.constantFrom(1, 2),
    level: fc.constant(2),
    urgency: fc.constant(240),
    pages: fc.integer({ min: 1, max: 100 }),
    spacing: fc.constantFrom(1 as const, 2 as const),
    premiumWriter: fc.boolean(),
    preferredWriter: fc.boolean(),
    extraQualityCheck: fc.boolean(),
    originalityReport: fc.boolean(),
    onePageSummary: fc.boolean(),
    discount: fc.option(fc.record({ percent: fc.integer({ min: 0, max: 100 }), amount: fc.integer({ min: 0, max: 100_000 }) }), {
      nil: undefined,
    }),
  });
  it('is integer cents, non-negative, and final equals the lines minus the discount', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const r = calculatePrice(table, input);
        if (!r.ok) return false;
        const p = r.price;
        const lines =
          p.basicPrice + p.pricePremiumWriter + p.pricePreferedWriter + p.priceExtraQualityCheck + p.priceQuality + p.priceOnePageSummary;
        return (
          Object.values(p).every((v) => Number.isInteger(v) && v >= 0) &&
          p.finalPrice === lines - p.priceDiscount &&
          p.priceDiscount <= table.maxAmountDiscount
        );
      }),
    );
  });
  it('never gets cheaper with more pages or an extra turned on', () => {
    fc.assert(
      fc.property(inputs, (input) => {
        const a = calculatePrice(table, { ...input, discount: undefined });
        const b = calculatePrice(table, { ...input, pages: input.pages + 1, discount: undefined });
        const c = calculatePrice(table, { ...input, premiumWriter: true, discount: undefined });
        return a.ok && b.ok && c.ok && b.price.finalPrice >= a.price.finalPrice && c.price.finalPrice >= a.price.finalPrice;
      }),
    );
  });
});

describe("the server's figure (priceFromWire, samePrice)", () => {
  it('reads the wire price back into the same cents, for any price', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), fc.boolean(), fc.integer({ min: 0, max: 100 }), (pages, premiumWriter, percent) => {
        const p = price({ pages, premiumWriter, discount: { percent, amount: 0 } });
        const back = priceFromWire(priceToWire(p));
        return samePrice(back, p) && JSON.stringify(back) === JSON.stringify(p);
      }),
    );
  });
  it('tells a price that differs on any line', () => {
    const p = price({});
    expect(samePrice(p, { ...p })).toBe(true);
    expect(samePrice(p, { ...p, finalPrice: p.finalPrice + 1 })).toBe(false);
    expect(samePrice(p, { ...p, priceDiscount: 1 })).toBe(false);
  });
});
