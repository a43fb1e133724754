import { describe, expect, it } from 'vitest';
import {
  areLoyaltyRulesValid,
  currentLoyaltyRule,
  discountCodeState,
  LOYALTY_MESSAGE,
  LOYALTY_RULES,
  loyaltyGeneration,
  nextLoyaltyRule,
  pointsForPayment,
  pointsToNextRule,
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
