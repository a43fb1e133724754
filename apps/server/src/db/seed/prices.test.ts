import { describe, expect, it } from 'vitest';
import { ACADEMIC_LEVELS, RESUME_LEVELS, THESIS_LEVELS, URGENCIES, WORK_TYPES_BY_CATEGORY } from './catalogues';
import { priceExtraRows, priceRateRows, seededCalcs } from './prices';

const rates = priceRateRows();
const rate = (category: number, workType: number, level: number, hours: number): number => {
  const row = rates.find(
    (r) => r.siteCategory === category && r.workTypeId === workType && r.levelId === level && r.urgencyHours === hours,
  );
  if (!row) throw new Error(`no rate ${category}:${workType}:${level}:${hours}`);
  return row.centsPerPage;
};
const LEVELS: Record<number, readonly (readonly [number, string])[]> = {
  1: ACADEMIC_LEVELS,
  2: ACADEMIC_LEVELS,
  3: RESUME_LEVELS,
  4: THESIS_LEVELS,
  5: ACADEMIC_LEVELS,
};
const hoursLongestFirst = URGENCIES.map((u) => u.hours).sort((a, b) => b - a);

describe('seeded price rates (ADR 0011)', () => {
  it('price every work type, level and urgency a category offers, once, in whole cents', () => {
    for (const [category, workTypes] of Object.entries(WORK_TYPES_BY_CATEGORY)) {
      for (const [workType] of workTypes) {
        for (const [level] of LEVELS[Number(category)] ?? []) {
          for (const hours of hoursLongestFirst) expect(Number.isInteger(rate(Number(category), workType, level, hours))).toBe(true);
        }
      }
    }
    const keys = rates.map((r) => `${r.siteCategory}:${r.workTypeId}:${r.levelId}:${r.urgencyHours}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('start a college essay at $12 a page for 10 days and $35 for 12 hours', () => {
    expect(rate(1, 1, 2, 240)).toBe(1200);
    expect(rate(1, 1, 2, 12)).toBe(3500);
  });

  it('rise as the deadline shortens, for every category, work type and level', () => {
    for (const category of [1, 3, 4, 5]) {
      for (const [workType] of WORK_TYPES_BY_CATEGORY[category] ?? []) {
        for (const [level] of LEVELS[category] ?? []) {
          const series = hoursLongestFirst.map((h) => rate(category, workType, level, h));
          expect(series).toEqual([...series].sort((a, b) => a - b));
          expect(new Set(series).size).toBe(series.length);
        }
      }
    }
  });

  it('rise with the level, and editing costs less than writing', () => {
    for (const category of [1, 3, 4, 5]) {
      const levels = (LEVELS[category] ?? []).map(([id]) => rate(category, 1, id, 240));
      expect(levels).toEqual([...levels].sort((a, b) => a - b));
      expect(rate(category, 2, 1, 240)).toBeLessThan(rate(category, 1, 1, 240));
    }
  });

  it('serve in the wire shape with 2-decimal amounts, percents whole', () => {
    const calcs = seededCalcs(1);
    expect(calcs.rates).toContainEqual({ idWorkType: 1, idLevel: 2, urgency: 240, pricePerPage: 12 });
    expect(calcs.extras).toContainEqual({ key: 'onePageSummary', kind: 'flat', value: 17.99 });
    expect(calcs.extras).toContainEqual({ key: 'premiumWriter', kind: 'percent', value: 25 });
    expect(calcs.maxAmountDiscount).toBe(100);
    expect(priceExtraRows().filter((e) => e.siteCategory === 3)).toHaveLength(5);
  });
});
