import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calcsSchema, calculatePrice, priceToWire, toPriceTable, type PriceTable } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { PRICE_TABLE_CACHE_MS } from './index';

let t: TestApp;
const tables = new Map<number, PriceTable>();
const urgencies: number[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  for (const category of [1, 3, 4, 5]) {
    const calcs = calcsSchema.parse(
      (await t.app.inject({ method: 'GET', url: `/api/en/sites/categories/${category}/orders/calcs` })).json(),
    );
    tables.set(category, toPriceTable(calcs));
  }
  urgencies.push(
    ...(await t.app.inject({ method: 'GET', url: '/api/en/sites/1/orders/urgencies' })).json().map((u: { hours: number }) => u.hours),
  );
});
afterAll(async () => {
  await t.close();
});

const calc = (category: number | string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url: `/api/en/sites/categories/${category}/orders/calcs`, payload: payload as Record<string, unknown> });

const levelField = (category: number): string => (category === 3 ? 'resumeLevel' : category === 4 ? 'thesisLevel' : 'academicLevel');
const onOff = fc.constantFrom<1 | 2>(1, 2);

describe('PUT …/orders/calcs', () => {
  it('answers what the domain function answers over the served tables, for any input (client and server agree)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          category: fc.constantFrom(1, 3, 4, 5),
          workType: fc.integer({ min: 1, max: 4 }),
          level: fc.integer({ min: 1, max: 5 }),
          urgencyIndex: fc.nat(8),
          pages: fc.integer({ min: 1, max: 100 }),
          idSpacing: onOff,
          premiumWriter: onOff,
          extraQualityCheck: onOff,
          originalityReport: onOff,
          onePageSummary: onOff,
          preferredWriterList: fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 3 }),
          discountPercent: fc.integer({ min: 0, max: 100 }),
          discountCents: fc.integer({ min: 0, max: 20_000 }),
        }),
        async (input) => {
          const urgency = urgencies[input.urgencyIndex] ?? 240;
          const res = await calc(input.category, {
            idWorkType: input.workType,
            [levelField(input.category)]: input.level,
            discountAmount: input.discountCents / 100,
            discountPercent: input.discountPercent,
            pages: input.pages,
            idSpacing: input.idSpacing,
            urgency,
            premiumWriter: input.premiumWriter,
            preferredWriterList: input.preferredWriterList,
            preferredWriterAnother: false,
            originalityReport: input.originalityReport,
            extraQualityCheck: input.extraQualityCheck,
            onePageSummary: input.onePageSummary,
          });
          const table = tables.get(input.category);
          if (!table) throw new Error('no table');
          const expected = calculatePrice(table, {
            workType: input.workType,
            level: input.level,
            urgency,
            pages: input.pages,
            spacing: input.idSpacing,
            premiumWriter: input.premiumWriter === 2,
            preferredWriter: input.preferredWriterList.length > 0,
            extraQualityCheck: input.extraQualityCheck === 2,
            originalityReport: input.originalityReport === 2,
            onePageSummary: input.onePageSummary === 2,
            discount: { percent: input.discountPercent, amount: input.discountCents },
          });
          if (expected.ok) {
            expect(res.statusCode).toBe(200);
            expect(res.json()).toEqual(priceToWire(expected.price));
          } else {
            expect(res.statusCode).toBe(422);
            expect(res.json()).toEqual({ message: expect.any(String) });
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('needs no token and prices a seeded combination', async () => {
    const res = await calc(1, {
      idWorkType: 1,
      academicLevel: 2,
      pages: 2,
      idSpacing: 2,
      urgency: 240,
      premiumWriter: 1,
      originalityReport: 1,
      extraQualityCheck: 1,
      onePageSummary: 1,
    });
    expect(res.statusCode).toBe(200);
    // ADR 0011: a college essay page for 10 days is $12.00.
    expect(res.json()).toMatchObject({ basicPrice: 24, finalPrice: 24, priceDiscount: 0 });
  });

  it('answers 422 with a message for a combination without a rate', async () => {
    // Resumes offer writing and editing only (ADR 0011).
    const res = await calc(3, {
      idWorkType: 3,
      resumeLevel: 1,
      pages: 1,
      idSpacing: 2,
      urgency: 120,
      premiumWriter: 1,
      originalityReport: 1,
      extraQualityCheck: 1,
      onePageSummary: 1,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: expect.any(String) });
  });

  it("answers 422 when the category's level field is missing", async () => {
    const res = await calc(4, {
      idWorkType: 1,
      academicLevel: 1,
      pages: 1,
      idSpacing: 2,
      urgency: 240,
      premiumWriter: 1,
      originalityReport: 1,
      extraQualityCheck: 1,
      onePageSummary: 1,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toHaveProperty('thesisLevel');
  });

  it('answers 404 for an unknown category', async () => {
    const payload = {
      idWorkType: 1,
      academicLevel: 1,
      pages: 1,
      idSpacing: 2,
      urgency: 240,
      premiumWriter: 1,
      originalityReport: 1,
      extraQualityCheck: 1,
      onePageSummary: 1,
    };
    for (const category of ['2', '9', 'abc']) expect((await calc(category, payload)).statusCode).toBe(404);
  });

  it('reads a changed rate once the cache time has passed', async () => {
    const payload = {
      idWorkType: 2,
      academicLevel: 5,
      pages: 1,
      idSpacing: 2,
      urgency: 336,
      premiumWriter: 1,
      originalityReport: 1,
      extraQualityCheck: 1,
      onePageSummary: 1,
    };
    const before = (await calc(5, payload)).json().basicPrice as number;
    await t.db.query(
      'UPDATE price_rates SET cents_per_page = 4321 WHERE site_category = 5 AND work_type_id = 2 AND level_id = 5 AND urgency_hours = 336',
    );
    expect((await calc(5, payload)).json().basicPrice).toBe(before);
    t.clock.advance(PRICE_TABLE_CACHE_MS);
    expect((await calc(5, payload)).json().basicPrice).toBe(43.21);
  });
});
