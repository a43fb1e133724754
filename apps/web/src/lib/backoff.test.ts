import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, RECONNECT_BASE_MS, RECONNECT_MAX_MS } from './backoff';

describe('reconnect backoff with full jitter (ADR 0049)', () => {
  it('doubles its ceiling with each attempt up to the cap', () => {
    expect([0, 1, 2, 3].map((a) => backoffDelay(a, 1))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(backoffDelay(20, 1)).toBe(RECONNECT_MAX_MS);
  });

  it('spreads clients between a floor and the ceiling', () => {
    expect(backoffDelay(3, 0)).toBe(RECONNECT_BASE_MS / 4);
    expect(backoffDelay(3, 0.5)).toBe(Math.round(250 + (8_000 - 250) / 2));
  });

  it('stays within (0, cap] for any attempt and random value (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 10_000 }), fc.double({ min: 0, max: 1, noNaN: true }), (attempt, random) => {
        const delay = backoffDelay(attempt, random);
        expect(delay).toBeGreaterThan(0);
        expect(delay).toBeLessThanOrEqual(RECONNECT_MAX_MS);
      }),
    );
  });
});
