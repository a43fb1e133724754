import { describe, expect, it } from 'vitest';
import { isoInstant } from './iso-instant';

describe('isoInstant', () => {
  it("is toISOString's text for every instant it writes itself, and toISOString's own outside them", () => {
    const edges = [
      0,
      -1,
      Date.UTC(1000, 0, 1),
      Date.UTC(1000, 0, 1) - 1,
      Date.UTC(1999, 11, 31, 23, 59, 59, 999),
      Date.UTC(2000, 1, 29, 12, 0, 0, 5),
      Date.UTC(2024, 1, 29, 9, 9, 9, 99),
      Date.UTC(2026, 10, 27, 2, 12, 21, 402),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999) + 1,
      -62_198_755_200_000, // year 0
      8.64e15,
      -8.64e15,
    ];
    for (const ms of edges) expect(isoInstant(new Date(ms)), String(ms)).toBe(new Date(ms).toISOString());
    // Random instants from year 900 to 10100, and around now to the millisecond.
    let seed = 81;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const from = Date.UTC(900, 0, 1);
    const to = Date.UTC(10_100, 0, 1);
    const now = Date.now();
    const differing: string[] = [];
    for (let i = 0; i < 100_000; i++) {
      const date = new Date(i % 2 === 0 ? Math.floor(from + random() * (to - from)) : Math.floor(now + (random() - 0.5) * 4e10));
      if (isoInstant(date) !== date.toISOString()) differing.push(date.toISOString());
    }
    expect(differing).toEqual([]);
  });

  it('throws as toISOString does for an invalid date', () => {
    expect(() => isoInstant(new Date(Number.NaN))).toThrow(RangeError);
  });
});
