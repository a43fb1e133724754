import { describe, expect, it } from 'vitest';
import {
  areLoyaltyRulesValid,
  currentLoyaltyRule,
  formatPercent,
  nextLevelHint,
  nextLevelHintText,
  discountCodeState,
  LOYALTY_MESSAGE,
  LOYALTY_RULES,
  loyaltyGeneration,
  nextLoyaltyRule,
  pointsForPayment,
  pointsOwedOnRefund,
  pointsToNextRule,
  refundPointsPlan,
} from './index';

describe('LOYALTY_RULES (CONTRACT: start at 0 points with 0 %)', () => {
  it('start at 0 with 0 %, have no gaps, and only the last is open-ended', () => {
    expect(LOYALTY_RULES[0]).toEqual({ from: 0, to: 99, percent: 0 });
    expect(areLoyaltyRulesValid(LOYALTY_RULES)).toBe(true);
  });
  it.each([
    [[], 'empty'],
    [[{ from: 1, to: null, percent: 0 }], 'not starting at 0'],
    [
      [
        { from: 0, to: 10, percent: 0 },
        { from: 12, to: null, percent: 3 },
      ],
      'a gap',
    ],
    [
      [
        { from: 0, to: 10, percent: 0 },
        { from: 10, to: null, percent: 3 },
      ],
      'an overlap',
    ],
    [[{ from: 0, to: 10, percent: 0 }], 'a closed last rule'],
    [
      [
        { from: 0, to: null, percent: 0 },
        { from: 5, to: null, percent: 3 },
      ],
      'an open rule before the last',
    ],
    [
      [
        { from: 0, to: 10, percent: 5 },
        { from: 11, to: null, percent: 3 },
      ],
      'a falling percent',
    ],
    [[{ from: 0, to: null, percent: 101 }], 'a percent above 100'],
  ])('refuses %j (%s)', (rules) => {
    expect(areLoyaltyRulesValid(rules)).toBe(false);
  });
});

describe('currentLoyaltyRule and points to the next rule', () => {
  it.each([
    [0, 0, 100],
    [99, 0, 1],
    [100, 3, 200],
    [299, 3, 1],
    [300, 5, 300],
    [999, 7, 1],
    [1000, 10, null],
    [50_000, 10, null],
  ])('%i points: %i %%, %s to the next', (points, percent, toNext) => {
    expect(currentLoyaltyRule(points).percent).toBe(percent);
    expect(pointsToNextRule(points)).toBe(toNext);
  });
  it('treats a negative balance (a refund of spent points) as 0', () => {
    expect(currentLoyaltyRule(-40)).toEqual(LOYALTY_RULES[0]);
    expect(pointsToNextRule(-40)).toBe(100);
    expect(nextLoyaltyRule(-40)).toEqual(LOYALTY_RULES[1]);
  });
  it('every balance from 0 to 1200 falls in exactly one rule', () => {
    for (let p = 0; p <= 1200; p += 1) {
      const matches = LOYALTY_RULES.filter((r) => p >= r.from && (r.to === null || p <= r.to));
      expect(matches).toHaveLength(1);
      expect(currentLoyaltyRule(p)).toBe(matches[0]);
    }
  });
});

describe('pointsForPayment (ADR 0050: 1 point per whole dollar)', () => {
  it.each([
    [0, 0],
    [-500, 0],
    [99, 0],
    [100, 1],
    [1999, 19],
    [12_345, 123],
  ])('%i cents earn %i points', (cents, points) => {
    expect(pointsForPayment(cents)).toBe(points);
  });
  it('refuses a fractional amount of cents', () => {
    expect(() => pointsForPayment(1.5)).toThrow(RangeError);
  });
});

describe('loyaltyGeneration (SPEC §5, ADR 0050)', () => {
  it.each([0, 50, 99, -10])('refuses with the SPEC message at %i points', (points) => {
    expect(loyaltyGeneration(points)).toEqual({ ok: false, message: LOYALTY_MESSAGE.notEnoughPoints });
    expect(LOYALTY_MESSAGE.notEnoughPoints).toBe("You don't have enough points to generate discount.");
  });
  it.each([
    [100, 3, 100, 0],
    [150, 3, 100, 50],
    [450, 5, 300, 150],
    [1000, 10, 1000, 0],
    [2500, 10, 1000, 1500],
  ])('at %i points gives %i %%, spends %i and leaves %i', (points, percent, pointsSpent, pointsLeft) => {
    expect(loyaltyGeneration(points)).toEqual({ ok: true, percent, pointsSpent, pointsLeft });
  });
  it('refuses on rules whose current percent is 0 whatever the balance', () => {
    expect(loyaltyGeneration(5000, [{ from: 0, to: null, percent: 0 }]).ok).toBe(false);
  });
});

describe('discountCodeState', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  it('is used once used, expired at its expiry, active otherwise', () => {
    expect(discountCodeState({ usedAt: null, expiresAt: null }, now)).toBe('active');
    expect(discountCodeState({ usedAt: null, expiresAt: new Date('2026-03-01T12:00:01Z') }, now)).toBe('active');
    expect(discountCodeState({ usedAt: null, expiresAt: now }, now)).toBe('expired');
    expect(discountCodeState({ usedAt: new Date('2026-01-01'), expiresAt: new Date('2026-02-01') }, now)).toBe('used');
  });
});

describe('pointsOwedOnRefund (ADR 0072: in proportion, integer math, rounded down, the rest at the end)', () => {
  it.each([
    // earned, taken back already, paid, refunded so far → owed now
    [100, 0, 10_000, 10_000, 100],
    [100, 0, 10_000, 5_000, 50],
    [100, 0, 10_000, 3_333, 33],
    [100, 33, 10_000, 6_666, 33],
    [100, 66, 10_000, 10_000, 34],
    [100, 100, 10_000, 10_000, 0],
    [24, 0, 2_499, 1, 0],
    [24, 0, 2_499, 2_498, 23],
    [0, 0, 10_000, 10_000, 0],
    [100, 0, 10_000, 0, 0],
    // no recorded payment (demo earnings): a refund takes everything
    [50, 0, 0, 100, 50],
    // more refunded than paid never takes more than earned
    [100, 0, 10_000, 20_000, 100],
  ])('earned %i, taken %i, paid %i, refunded %i: %i', (earnedPoints, takenBackPoints, paidCents, refundedCents, owed) => {
    expect(pointsOwedOnRefund({ earnedPoints, takenBackPoints, paidCents, refundedCents })).toBe(owed);
  });

  it('never takes back more than earned over any split of the refunds, and exactly all once refunded in full', () => {
    for (const earned of [0, 1, 7, 24, 99, 123]) {
      for (const paid of [100, 2_499, 12_345]) {
        for (const parts of [2, 3, 7]) {
          let refunded = 0;
          let taken = 0;
          for (let i = 1; i <= parts; i += 1) {
            refunded = i === parts ? paid : Math.floor((paid * i) / parts);
            const owed = pointsOwedOnRefund({ earnedPoints: earned, takenBackPoints: taken, paidCents: paid, refundedCents: refunded });
            expect(owed).toBeGreaterThanOrEqual(0);
            taken += owed;
            expect(taken).toBeLessThanOrEqual(Math.floor((earned * refunded) / paid));
          }
          expect(taken).toBe(earned);
        }
      }
    }
  });

  it('refuses fractions', () => {
    expect(() => pointsOwedOnRefund({ earnedPoints: 1.5, takenBackPoints: 0, paidCents: 1, refundedCents: 1 })).toThrow(RangeError);
  });
});

describe('refundPointsPlan (ADR 0072: the balance never goes below 0)', () => {
  it('takes what is owed when the balance covers it, and leaves the code alone', () => {
    expect(refundPointsPlan({ owed: 100, balance: 150, openCodePoints: 100 })).toEqual({ voidCode: false, restored: 0, takenBack: 100 });
    expect(refundPointsPlan({ owed: 0, balance: 0, openCodePoints: 100 })).toEqual({ voidCode: false, restored: 0, takenBack: 0 });
  });
  it('voids the unused code and gives its points back first when the balance would go below 0', () => {
    expect(refundPointsPlan({ owed: 100, balance: 0, openCodePoints: 100 })).toEqual({ voidCode: true, restored: 100, takenBack: 100 });
    expect(refundPointsPlan({ owed: 100, balance: 50, openCodePoints: 300 })).toEqual({ voidCode: true, restored: 300, takenBack: 100 });
  });
  it('writes off what even the code cannot cover, and a balance already below 0 gives nothing more', () => {
    expect(refundPointsPlan({ owed: 400, balance: 0, openCodePoints: 100 })).toEqual({ voidCode: true, restored: 100, takenBack: 100 });
    expect(refundPointsPlan({ owed: 100, balance: 30, openCodePoints: null })).toEqual({ voidCode: false, restored: 0, takenBack: 30 });
    expect(refundPointsPlan({ owed: 100, balance: -40, openCodePoints: null })).toEqual({ voidCode: false, restored: 0, takenBack: 0 });
  });
  it('never leaves the balance below 0 when it starts at 0 or above', () => {
    for (const owed of [0, 1, 50, 100, 333])
      for (const balance of [0, 1, 99, 100, 500])
        for (const openCodePoints of [null, 100, 300]) {
          const plan = refundPointsPlan({ owed, balance, openCodePoints });
          expect(balance + plan.restored - plan.takenBack).toBeGreaterThanOrEqual(0);
          expect(plan.takenBack).toBeLessThanOrEqual(owed);
        }
  });
});

describe('a voided code', () => {
  it('is voided unless it was used', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(discountCodeState({ usedAt: null, expiresAt: null, active: false }, now)).toBe('voided');
    expect(discountCodeState({ usedAt: now, expiresAt: null, active: false }, now)).toBe('used');
  });
});

describe('nextLevelHint (ADR 0097: close is within a fifth of the step to the next level)', () => {
  it.each([
    // points, expected hint
    [0, null],
    [79, null],
    [80, { pointsMore: 20, percent: 3 }],
    [99, { pointsMore: 1, percent: 3 }],
    [100, null],
    [259, null],
    [260, { pointsMore: 40, percent: 5 }],
    [540, { pointsMore: 60, percent: 7 }],
    [919, null],
    [920, { pointsMore: 80, percent: 10 }],
    [983, { pointsMore: 17, percent: 10 }],
    [1000, null],
    [50_000, null],
    [-40, null],
  ])('%i points: %j', (points, hint) => {
    expect(nextLevelHint(points)).toEqual(hint);
  });
  it('is never shown on the last level, and a one-point step is close at its only point', () => {
    expect(nextLevelHint(5, [{ from: 0, to: null, percent: 0 }])).toBeNull();
    const tiny = [
      { from: 0, to: 0, percent: 0 },
      { from: 1, to: null, percent: 2 },
    ];
    expect(nextLevelHint(0, tiny)).toEqual({ pointsMore: 1, percent: 2 });
  });
  it('reads "17 points more gives 10%" (no space before %), and "1 point" in the singular', () => {
    expect(nextLevelHintText({ pointsMore: 17, percent: 10 })).toBe('17 points more gives 10%');
    expect(nextLevelHintText({ pointsMore: 1, percent: 3 })).toBe('1 point more gives 3%');
    expect(nextLevelHintText({ pointsMore: 1200, percent: 3 })).toBe('1,200 points more gives 3%');
    expect(formatPercent(7)).toBe('7%');
  });
});
