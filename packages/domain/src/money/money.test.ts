import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { amountToCents, centsToAmount, formatUsd } from './index';

describe('money is integer cents inside and 2 decimals on the wire (CONTRACT)', () => {
  it.each([
    [0, 0],
    [1, 0.01],
    [1999, 19.99],
    [100000, 1000],
  ])('turns %i cents into %d', (cents, amount) => {
    expect(centsToAmount(cents)).toBe(amount);
  });

  it.each([
    [19.99, 1999],
    [0.1 + 0.2, 30],
    [12.345, 1235],
    [1000, 100000],
  ])('parses %d to %i cents without floating-point drift', (amount, cents) => {
    expect(amountToCents(amount)).toBe(cents);
  });

  it('refuses fractional cents and non-finite amounts', () => {
    expect(() => centsToAmount(1.5)).toThrow(RangeError);
    expect(() => amountToCents(Number.NaN)).toThrow(RangeError);
  });

  it('round-trips every cent value through the wire format', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10_000_000_00 }), (cents) => amountToCents(centsToAmount(cents)) === cents));
  });

  it('formats dollars with 2 decimals (SPEC §9 payment button)', () => {
    expect(formatUsd(1999)).toBe('$19.99');
    expect(formatUsd(123456)).toBe('$1,234.56');
    expect(formatUsd(500)).toBe('$5.00');
  });

  it('formats every whole cent as the en-US number format does', () => {
    const intl = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
    for (const cents of [0, 1, 9, 10, 99, 100, 101, 99_999, 100_000, 123_456_789, -1, -250, -123_456])
      expect(formatUsd(cents)).toBe(intl(cents));
    fc.assert(fc.property(fc.integer({ min: -10_000_000_00, max: 10_000_000_00 }), (cents) => formatUsd(cents) === intl(cents)));
  });
});
