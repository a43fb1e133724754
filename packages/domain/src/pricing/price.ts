import { amountToCents, type Cents } from '../money/index';
import type { Calcs } from '../catalogue/index';

/**
 * The one price function (CONTRACT "Orders and catalogues"): the wizard runs it as the customer types,
 * the server runs it again, authoritatively, at `PUT …/calcs` and at order creation. Integer cents in
 * and out; the price tables come from `GET …/calcs` (seeded, editable in the database).
 */
export type ExtraKey = 'premiumWriter' | 'preferredWriter' | 'extraQualityCheck' | 'originalityReport' | 'onePageSummary';

export interface PriceTable {
  siteCategory: number;
  /** cents per page, keyed by `${workType}:${level}:${urgencyHours}` */
  rates: ReadonlyMap<string, Cents>;
  extras: ReadonlyMap<ExtraKey, { kind: 'percent' | 'flat'; value: number }>;
  maxAmountDiscount: Cents;
}

const rateKey = (workType: number, level: number, urgency: number): string => `${workType}:${level}:${urgency}`;

/** Turns the wire tables (amounts with 2 decimals) into cents. Flat extras are amounts, percents stay whole. */
export const toPriceTable = (calcs: Calcs): PriceTable => ({
  siteCategory: calcs.siteCategory,
  rates: new Map(calcs.rates.map((r) => [rateKey(r.idWorkType, r.idLevel, r.urgency), amountToCents(r.pricePerPage)])),
  extras: new Map(calcs.extras.map((e) => [e.key, { kind: e.kind, value: e.kind === 'flat' ? amountToCents(e.value) : e.value }])),
  maxAmountDiscount: amountToCents(calcs.maxAmountDiscount),
});

export interface PriceDiscount {
  /** whole percent, 0–100 */
  percent: number;
  /** fixed amount in cents */
  amount: Cents;
}

export interface PriceInput {
  workType: number;
  level: number;
  /** hours */
  urgency: number;
  pages: number;
  /** 1 single, 2 double (SPEC §3) */
  spacing: 1 | 2;
  premiumWriter: boolean;
  /** preferred writers chosen (SPEC §4: tracked apart from the premium writer) */
  preferredWriter: boolean;
  extraQualityCheck: boolean;
  originalityReport: boolean;
  onePageSummary: boolean;
  discount?: PriceDiscount | undefined;
}

/** SPEC §3 "Price", in cents. */
export interface Price {
  basicPrice: Cents;
  pricePremiumWriter: Cents;
  pricePreferedWriter: Cents;
  priceExtraQualityCheck: Cents;
  priceQuality: Cents;
  priceOnePageSummary: Cents;
  priceDiscount: Cents;
  finalPrice: Cents;
}

export type PriceResult = { ok: true; price: Price } | { ok: false; reason: 'no-rate' | 'bad-input' };

/** Half-up rounding of a non-negative share, in cents. */
const percentOf = (cents: Cents, percent: number): Cents => Math.round((cents * percent) / 100);

const extraPrice = (table: PriceTable, key: ExtraKey, on: boolean, basic: Cents): Cents => {
  const extra = table.extras.get(key);
  if (!on || !extra) return 0;
  return extra.kind === 'percent' ? percentOf(basic, extra.value) : extra.value;
};

export const calculatePrice = (table: PriceTable, input: PriceInput): PriceResult => {
  if (!Number.isInteger(input.pages) || input.pages < 1 || (input.spacing !== 1 && input.spacing !== 2)) {
    return { ok: false, reason: 'bad-input' };
  }
  const rate = table.rates.get(rateKey(input.workType, input.level, input.urgency));
  if (rate === undefined) return { ok: false, reason: 'no-rate' };
  // SPEC §3: 300 words a page double spaced; single spacing holds twice the words, so it counts double.
  const billedPages = input.spacing === 1 ? input.pages * 2 : input.pages;
  const basicPrice = rate * billedPages;
  const pricePremiumWriter = extraPrice(table, 'premiumWriter', input.premiumWriter, basicPrice);
  const pricePreferedWriter = extraPrice(table, 'preferredWriter', input.preferredWriter, basicPrice);
  const priceExtraQualityCheck = extraPrice(table, 'extraQualityCheck', input.extraQualityCheck, basicPrice);
  const priceQuality = extraPrice(table, 'originalityReport', input.originalityReport, basicPrice);
  const priceOnePageSummary = extraPrice(table, 'onePageSummary', input.onePageSummary, basicPrice);
  const subtotal = basicPrice + pricePremiumWriter + pricePreferedWriter + priceExtraQualityCheck + priceQuality + priceOnePageSummary;
  const discount = input.discount;
  const rawDiscount = discount ? percentOf(subtotal, Math.min(Math.max(discount.percent, 0), 100)) + Math.max(discount.amount, 0) : 0;
  // A discount is never more than maxAmountDiscount (ADR 0012) nor more than the order itself.
  const priceDiscount = Math.min(rawDiscount, table.maxAmountDiscount, subtotal);
  return {
    ok: true,
    price: {
      basicPrice,
      pricePremiumWriter,
      pricePreferedWriter,
      priceExtraQualityCheck,
      priceQuality,
      priceOnePageSummary,
      priceDiscount,
      finalPrice: subtotal - priceDiscount,
    },
  };
};

/** SPEC §3 "Price" as the wire carries it: the same fields, amounts in USD with 2 decimals. */
export type PriceAmounts = Record<keyof Price, number>;

/** The server's `PUT …/calcs` answer in cents, to compare with and replace the client's figure. */
export const priceFromWire = (wire: PriceAmounts): Price => ({
  basicPrice: amountToCents(wire.basicPrice),
  pricePremiumWriter: amountToCents(wire.pricePremiumWriter),
  pricePreferedWriter: amountToCents(wire.pricePreferedWriter),
  priceExtraQualityCheck: amountToCents(wire.priceExtraQualityCheck),
  priceQuality: amountToCents(wire.priceQuality),
  priceOnePageSummary: amountToCents(wire.priceOnePageSummary),
  priceDiscount: amountToCents(wire.priceDiscount),
  finalPrice: amountToCents(wire.finalPrice),
});

const PRICE_FIELDS: readonly (keyof Price)[] = [
  'basicPrice',
  'pricePremiumWriter',
  'pricePreferedWriter',
  'priceExtraQualityCheck',
  'priceQuality',
  'priceOnePageSummary',
  'priceDiscount',
  'finalPrice',
];

/** True when two prices agree on every line (the wizard logs a disagreement with the server). */
export const samePrice = (a: Price, b: Price): boolean => PRICE_FIELDS.every((field) => a[field] === b[field]);
