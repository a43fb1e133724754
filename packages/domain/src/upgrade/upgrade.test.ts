import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Calcs } from '../catalogue/index';
import { ORDER_STATUS } from '../order/index';
import { calculatePrice, toPriceTable } from '../pricing/index';
import {
  planUpgrade,
  UPGRADE_MESSAGE as M,
  UPGRADE_MIN_LEAD_HOURS,
  upgradeBlocked,
  upgradeBodySchema,
  urgencyLabel,
  type UpgradeableOrder,
  type UpgradeRequest,
} from './index';

const H = 3_600_000;
const NOW = new Date('2026-03-02T10:00:00Z');
const calcs: Calcs = {
  siteCategory: 1,
  currency: 'USD',
  rates: [
    { idWorkType: 1, idLevel: 2, urgency: 240, pricePerPage: 12.99 },
    { idWorkType: 1, idLevel: 2, urgency: 72, pricePerPage: 18 },
    { idWorkType: 1, idLevel: 2, urgency: 24, pricePerPage: 24.5 },
    { idWorkType: 1, idLevel: 2, urgency: 12, pricePerPage: 30 },
    { idWorkType: 3, idLevel: 2, urgency: 240, pricePerPage: 10 },
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
const URGENCIES = [240, 72, 24, 12];

/** A 240-hour order placed 10 hours ago: its deadline is 230 hours away; bought for $30.00 with a discount. */
const order = (over: Partial<UpgradeableOrder> = {}): UpgradeableOrder => ({
  statusId: ORDER_STATUS.paid,
  delivered: false,
  amountDueCents: 0,
  workType: 1,
  level: 2,
  pages: 2,
  spacing: 2,
  urgencyHours: 240,
  deadline: new Date(NOW.getTime() + 230 * H),
  premiumWriter: false,
  preferredWriter: false,
  extraQualityCheck: false,
  originalityReport: false,
  onePageSummary: false,
  finalPriceCents: 2_300,
  ...over,
});
const plan = (request: Partial<UpgradeRequest>, over: Partial<UpgradeableOrder> = {}, now = NOW) =>
  planUpgrade({ order: order(over), request: { extras: [], ...request }, table, urgencies: URGENCIES, pagesMax: 100, now });

describe('which orders take an upgrade (ADR 0086)', () => {
  it.each([
    [ORDER_STATUS.unpaid, M.unpaid],
    [ORDER_STATUS.paid, null],
    [ORDER_STATUS.inProgress, null],
    [ORDER_STATUS.completed, M.finished],
    [ORDER_STATUS.refunded, M.finished],
    [ORDER_STATUS.canceled, M.finished],
    [ORDER_STATUS.hold, M.onHold],
    [ORDER_STATUS.modified, M.differenceDue],
    [ORDER_STATUS.offered, M.finished],
  ])('status %i → %s', (statusId, message) => {
    expect(upgradeBlocked({ statusId, delivered: false, amountDueCents: 0 })).toBe(message);
    const result = plan({ pages: 3 }, { statusId });
    if (message === null) expect(result.ok).toBe(true);
    else expect(result).toEqual({ ok: false, refusal: { kind: 'conflict', message } });
  });

  it('refuses a delivered order and one with a difference due', () => {
    expect(upgradeBlocked({ statusId: ORDER_STATUS.inProgress, delivered: true, amountDueCents: 0 })).toBe(M.delivered);
    expect(upgradeBlocked({ statusId: ORDER_STATUS.paid, delivered: false, amountDueCents: 5 })).toBe(M.differenceDue);
  });
});

describe('the price: the one price function, by the difference', () => {
  it('adds pages at the order’s rate, keeping the price it was bought for (its discount stays)', () => {
    const result = plan({ pages: 5 });
    expect(result).toMatchObject({ ok: true, plan: { pages: 5, differenceCents: 3 * 1_299, currentPriceCents: 2_300 } });
    if (result.ok) expect(result.plan.newPriceCents).toBe(2_300 + 3 * 1_299);
  });

  it('equals calculatePrice(after) − calculatePrice(before) for every mix of pages, extras and urgency', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 100 }),
        fc.subarray(['premiumWriter', 'extraQualityCheck', 'onePageSummary', 'originalityReport']),
        fc.constantFrom(240, 72, 24),
        (pages, extras, urgency) => {
          const result = plan({ pages, extras, urgency });
          if (pages === 2 && extras.length === 0 && urgency === 240) return;
          if (!result.ok) throw new Error(result.refusal.message);
          const input = {
            workType: 1,
            level: 2,
            spacing: 2 as const,
            preferredWriter: false,
            premiumWriter: false,
            extraQualityCheck: false,
            originalityReport: false,
            onePageSummary: false,
          };
          const before = calculatePrice(table, { ...input, urgency: 240, pages: 2 });
          const after = calculatePrice(table, {
            ...input,
            urgency,
            pages,
            premiumWriter: extras.includes('premiumWriter'),
            extraQualityCheck: extras.includes('extraQualityCheck'),
            originalityReport: extras.includes('originalityReport'),
            onePageSummary: extras.includes('onePageSummary'),
          });
          if (!before.ok || !after.ok) throw new Error('no rate');
          expect(result.plan.differenceCents).toBe(after.price.finalPrice - before.price.finalPrice);
          expect(result.plan.differenceCents).toBeGreaterThan(0);
          const d = result.plan.priceDelta;
          expect(d.finalPrice).toBe(result.plan.differenceCents);
          expect(d.priceDiscount).toBe(0);
          expect(
            d.basicPrice + d.pricePremiumWriter + d.pricePreferedWriter + d.priceExtraQualityCheck + d.priceQuality + d.priceOnePageSummary,
          ).toBe(d.finalPrice);
        },
      ),
    );
  });

  it('prices extras already on as nothing: only new ones count', () => {
    const result = plan({ extras: ['originalityReport', 'premiumWriter'] }, { originalityReport: true });
    expect(result).toMatchObject({ ok: true, plan: { addedExtras: ['premiumWriter'], differenceCents: Math.round(2 * 1_299 * 0.25) } });
    expect(plan({ extras: ['originalityReport'] }, { originalityReport: true })).toEqual({
      ok: false,
      refusal: { kind: 'validation', message: M.nothingAdded },
    });
  });

  it('refuses a table that has no rate for the order any more', () => {
    expect(plan({ pages: 3 }, { level: 9 })).toMatchObject({ ok: false, refusal: { message: M.noRate } });
  });
});

describe('what a request may ask', () => {
  it.each<[Partial<UpgradeRequest>, string, string | undefined]>([
    [{}, M.nothingAdded, undefined],
    [{ pages: 2 }, M.nothingAdded, undefined],
    [{ pages: 1 }, M.fewerPages(2), 'pages'],
    [{ pages: 0 }, M.fewerPages(2), 'pages'],
    [{ pages: -4 }, M.fewerPages(2), 'pages'],
    [{ pages: 2.5 }, M.pagesNotWhole, 'pages'],
    [{ pages: 101 }, M.tooManyPages(100), 'pages'],
    [{ urgency: 48 }, M.unknownUrgency, 'urgency'],
    [{ urgency: 500 }, M.unknownUrgency, 'urgency'],
    [{ extras: ['goldPlating'] }, M.unknownExtra('goldPlating'), 'extras'],
    [{ extras: ['preferredWriter'] }, M.unknownExtra('preferredWriter'), 'extras'],
    [{ extras: Array(9).fill('premiumWriter') as string[] }, M.tooManyExtras, 'extras'],
    [{ urgency: 12, extras: ['extraQualityCheck'] }, M.qualityCheckShort, 'extras'],
  ])('%j → %s', (request, message, field) => {
    const result = plan(request, { deadline: new Date(NOW.getTime() + 238 * H) });
    expect(result).toEqual({ ok: false, refusal: field ? { kind: 'validation', message, field } : { kind: 'validation', message } });
  });

  it('refuses a longer urgency and a quality check the new urgency cannot hold', () => {
    expect(plan({ urgency: 240 }, { urgencyHours: 72, deadline: new Date(NOW.getTime() + 70 * H) })).toMatchObject({
      refusal: { message: M.longerUrgency, field: 'urgency' },
    });
    expect(
      plan({ urgency: 12 }, { urgencyHours: 240, extraQualityCheck: true, deadline: new Date(NOW.getTime() + 239 * H) }),
    ).toMatchObject({ refusal: { message: M.qualityCheckShort, field: 'urgency' } });
  });

  it('refuses a summary of slides', () => {
    expect(plan({ extras: ['onePageSummary'] }, { workType: 3 })).toMatchObject({ refusal: { message: M.noSummaryForSlides } });
  });
});

describe('the deadline: a shorter urgency from the order’s start, never less than the shortest urgency left', () => {
  it('moves the deadline earlier by the hours taken off the urgency', () => {
    const result = plan({ urgency: 72 });
    // Placed 10 hours ago with 240 hours: with 72 it is due 62 hours from now.
    expect(result).toMatchObject({ ok: true, plan: { urgencyHours: 72, deadline: new Date(NOW.getTime() + 62 * H) } });
  });

  it(`keeps at least ${UPGRADE_MIN_LEAD_HOURS} hours for the writer`, () => {
    // Placed 60 hours ago: with 72 hours the deadline is 12 hours away (allowed); 61 hours ago, 11 (refused).
    expect(plan({ urgency: 72 }, { deadline: new Date(NOW.getTime() + 180 * H) }).ok).toBe(true);
    expect(plan({ urgency: 72 }, { deadline: new Date(NOW.getTime() + 179 * H) })).toEqual({
      ok: false,
      refusal: { kind: 'validation', message: M.tooLittleTime, field: 'urgency' },
    });
    // Already past where the shorter urgency would end.
    expect(plan({ urgency: 24 }, { deadline: new Date(NOW.getTime() + 100 * H) })).toMatchObject({ refusal: { message: M.tooLittleTime } });
  });

  it('refuses more pages or extras when the deadline is too close', () => {
    const close = { deadline: new Date(NOW.getTime() + 11 * H) };
    expect(plan({ pages: 3 }, close)).toEqual({ ok: false, refusal: { kind: 'conflict', message: M.tooLate } });
    expect(plan({ extras: ['originalityReport'] }, close)).toMatchObject({ refusal: { message: M.tooLate } });
    expect(plan({ pages: 3 }, { deadline: new Date(NOW.getTime() + 12 * H) }).ok).toBe(true);
  });

  it('keeps the deadline for pages and extras', () => {
    const result = plan({ pages: 4, extras: ['originalityReport'] });
    expect(result).toMatchObject({ ok: true, plan: { deadline: new Date(NOW.getTime() + 230 * H), urgencyHours: 240 } });
  });
});

describe('the wire body', () => {
  it('bounds sizes and shapes before any work', () => {
    expect(upgradeBodySchema.parse({ pages: 3 })).toEqual({ pages: 3, extras: [] });
    expect(upgradeBodySchema.safeParse({ extras: Array(20).fill('x') }).success).toBe(false);
    expect(upgradeBodySchema.safeParse({ extras: ['x'.repeat(65)] }).success).toBe(false);
    expect(upgradeBodySchema.safeParse({ pages: '3' }).success).toBe(false);
    expect(upgradeBodySchema.safeParse({ pages: 1e9 }).success).toBe(false);
    expect(upgradeBodySchema.safeParse({ pages: 1.5 }).success).toBe(false);
    expect(upgradeBodySchema.safeParse({ extras: [{ nested: true }] }).success).toBe(false);
  });

  it('names urgencies as the list does', () => {
    expect(urgencyLabel(72)).toBe('3 days');
    expect(urgencyLabel(24)).toBe('24 hours');
    expect(urgencyLabel(12)).toBe('12 hours');
  });
});
