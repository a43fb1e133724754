import { centsToAmount, type Calcs, type ExtraKey } from '@app/domain';
import { ACADEMIC_LEVELS, RESUME_LEVELS, THESIS_LEVELS, URGENCIES, WORK_TYPES_BY_CATEGORY } from './catalogues';

/**
 * The seeded price tables (ADR 0011). A rate is the price of one double-spaced page (300 words) in
 * integer cents, for a site category, work type, level and urgency:
 *
 *   rate = base(urgency) × category factor × level factor × work-type factor, rounded to 10 cents.
 *
 * The numbers follow what writing services charge: a college essay written in 10 days about $12 a
 * page, in 12 hours $35; editing about half of writing.
 */

/** Writing, essay category, college level (the reference), by urgency hours. */
const BASE_CENTS_BY_HOURS: Readonly<Record<number, number>> = {
  336: 1100,
  240: 1200,
  168: 1350,
  120: 1500,
  96: 1650,
  72: 1800,
  48: 2100,
  24: 2600,
  12: 3500,
};

/** SPEC §1 work types: editing rewrites up to 30 % (SPEC §9 tooltip), a slide is half a page. */
const WORK_TYPE_FACTOR: Readonly<Record<number, number>> = { 1: 1, 2: 0.55, 3: 0.5, 4: 0.6 };

const ACADEMIC_LEVEL_FACTOR: Readonly<Record<number, number>> = { 1: 0.85, 2: 1, 3: 1.15, 4: 1.4, 5: 1.7 };
const RESUME_LEVEL_FACTOR: Readonly<Record<number, number>> = { 1: 1, 2: 1.25, 3: 1.5, 4: 1.9 };
const THESIS_LEVEL_FACTOR: Readonly<Record<number, number>> = { 1: 1.15, 2: 1.4, 3: 1.7 };

interface CategoryPricing {
  factor: number;
  levels: readonly (readonly [number, string])[];
  levelFactor: Readonly<Record<number, number>>;
}

/** CONTRACT "Orders and catalogues": categories 1, 2, 5 use academic levels, 3 resume levels, 4 thesis levels. */
const CATEGORY_PRICING: Readonly<Record<number, CategoryPricing>> = {
  1: { factor: 1, levels: ACADEMIC_LEVELS, levelFactor: ACADEMIC_LEVEL_FACTOR },
  2: { factor: 1, levels: ACADEMIC_LEVELS, levelFactor: ACADEMIC_LEVEL_FACTOR },
  // A resume page is a bespoke career document, priced as a service rather than by volume.
  3: { factor: 2.5, levels: RESUME_LEVELS, levelFactor: RESUME_LEVEL_FACTOR },
  // Thesis work needs a writer with a degree above the one sought and original research.
  4: { factor: 1.3, levels: THESIS_LEVELS, levelFactor: THESIS_LEVEL_FACTOR },
  // Web content needs no citations or research apparatus.
  5: { factor: 0.9, levels: ACADEMIC_LEVELS, levelFactor: ACADEMIC_LEVEL_FACTOR },
};

export interface PriceRateRow {
  siteCategory: number;
  workTypeId: number;
  levelId: number;
  urgencyHours: number;
  centsPerPage: number;
}

const factorOf = (table: Readonly<Record<number, number>>, id: number): number => {
  const factor = table[id];
  if (factor === undefined) throw new Error(`no price factor for id ${id}`);
  return factor;
};

export const priceRateRows = (): PriceRateRow[] =>
  Object.entries(CATEGORY_PRICING).flatMap(([categoryKey, pricing]) => {
    const siteCategory = Number(categoryKey);
    const workTypes = WORK_TYPES_BY_CATEGORY[siteCategory] ?? [];
    return workTypes.flatMap(([workTypeId]) =>
      pricing.levels.flatMap(([levelId]) =>
        URGENCIES.map(({ hours }) => ({
          siteCategory,
          workTypeId,
          levelId,
          urgencyHours: hours,
          centsPerPage:
            Math.round(
              (factorOf(BASE_CENTS_BY_HOURS, hours) *
                pricing.factor *
                factorOf(pricing.levelFactor, levelId) *
                factorOf(WORK_TYPE_FACTOR, workTypeId)) /
                10,
            ) * 10,
        })),
      ),
    );
  });

export interface PriceExtraRow {
  siteCategory: number;
  key: ExtraKey;
  kind: 'percent' | 'flat';
  /** percent: whole percent of the basic price; flat: cents. */
  value: number;
}

/** The same extras in every category; an operator may change them per category. */
const EXTRAS: readonly Omit<PriceExtraRow, 'siteCategory'>[] = [
  { key: 'premiumWriter', kind: 'percent', value: 25 },
  { key: 'preferredWriter', kind: 'percent', value: 10 },
  { key: 'extraQualityCheck', kind: 'flat', value: 1500 },
  { key: 'originalityReport', kind: 'flat', value: 999 },
  { key: 'onePageSummary', kind: 'flat', value: 1799 },
];

export const PRICED_CATEGORIES: readonly number[] = Object.keys(CATEGORY_PRICING).map(Number);

export const priceExtraRows = (): PriceExtraRow[] =>
  PRICED_CATEGORIES.flatMap((siteCategory) => EXTRAS.map((extra) => ({ siteCategory, ...extra })));

/** The most a discount may take off one order, in cents. */
export const MAX_AMOUNT_DISCOUNT_CENTS = 10_000;

/** The seeded tables of one category in the wire shape of GET …/calcs (what the price function reads). */
export const seededCalcs = (siteCategory: number): Calcs => ({
  siteCategory,
  currency: 'USD',
  rates: priceRateRows()
    .filter((r) => r.siteCategory === siteCategory)
    .map((r) => ({ idWorkType: r.workTypeId, idLevel: r.levelId, urgency: r.urgencyHours, pricePerPage: centsToAmount(r.centsPerPage) })),
  extras: priceExtraRows()
    .filter((e) => e.siteCategory === siteCategory)
    .map((e) => ({ key: e.key, kind: e.kind, value: e.kind === 'flat' ? centsToAmount(e.value) : e.value })),
  maxAmountDiscount: centsToAmount(MAX_AMOUNT_DISCOUNT_CENTS),
});
