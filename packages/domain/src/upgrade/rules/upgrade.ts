// ADR 0086: an upgrade of a paid order (CONTRACT "After payment", scope change): more pages, extras, a
// shorter deadline, priced by the one price function and paid by the difference. Zod-free: the order
// page's dialog runs it as the customer types, the server runs it again, authoritatively.

import { URGENCY_MIN_HOURS } from '../../catalogue/rules/index';
import { ORDER_STATUS, WORK_TYPE } from '../../order/rules/index';
import { ORDER_FORM_LIMITS, ORDER_FORM_MESSAGE } from '../../order-form/rules/index';
import { calculatePrice, type Price, type PriceInput, type PriceTable } from '../../pricing/index';

const HOUR_MS = 60 * 60 * 1000;

/** The extras an upgrade may add, by their wire names (CONTRACT "Orders and catalogues"). */
export const UPGRADE_EXTRAS = ['premiumWriter', 'extraQualityCheck', 'onePageSummary', 'originalityReport'] as const;
export type UpgradeExtra = (typeof UPGRADE_EXTRAS)[number];
export const UPGRADE_EXTRA_NAME: Record<UpgradeExtra, string> = {
  premiumWriter: 'Premium writer',
  extraQualityCheck: 'Extra quality check',
  onePageSummary: 'One-page summary',
  originalityReport: 'Originality report',
};
export const isUpgradeExtra = (key: string): key is UpgradeExtra => (UPGRADE_EXTRAS as readonly string[]).includes(key);

/**
 * Who may upgrade: a paid order (2) and one in progress (3) whose work was not delivered yet. Not 9 (on
 * hold: support is dealing with it), 10 (a difference is due already), 1 (pay it first; an unpaid order is
 * simply edited), 5, 7, 8 (finished).
 */
export const UPGRADEABLE_STATUSES: readonly number[] = [ORDER_STATUS.paid, ORDER_STATUS.inProgress];

/** The writer keeps at least this much time before the deadline after an upgrade: the shortest urgency there is. */
export const UPGRADE_MIN_LEAD_HOURS = URGENCY_MIN_HOURS;

/** Every text the customer can meet (no SPEC text exists for upgrades). */
export const UPGRADE_MESSAGE = {
  unpaid: 'This order is not paid yet: edit it instead of upgrading it',
  finished: 'This order is finished and can no longer be upgraded',
  onHold: 'This order is on hold: please contact support to change it',
  differenceDue: 'This order already has a difference to pay: pay it first',
  delivered: 'The work was delivered: ask for changes or a revision instead of an upgrade',
  nothingAdded: 'Add pages, an extra or a shorter deadline to upgrade the order',
  pagesNotWhole: 'Pages must be a whole number',
  fewerPages: (pages: number) => `An upgrade can only add pages: the order has ${pages}`,
  tooManyPages: (max: number) => `At most ${max} pages`,
  unknownUrgency: 'Choose a deadline from the list',
  longerUrgency: 'Choose a deadline shorter than the current one',
  unknownExtra: (key: string) => `Unknown extra: ${key.slice(0, 40)}`,
  tooManyExtras: 'Too many extras',
  qualityCheckShort: ORDER_FORM_MESSAGE.extraQualityCheckUnavailable,
  noSummaryForSlides: 'A one-page summary is not available for a presentation',
  tooLittleTime: `That would leave your writer less than ${UPGRADE_MIN_LEAD_HOURS} hours before the deadline: choose a longer deadline`,
  tooLate: `Less than ${UPGRADE_MIN_LEAD_HOURS} hours are left before the deadline: the order can no longer be upgraded`,
  noRate: 'This order cannot be priced with the current price list: please contact support',
  /** the upgrade being paid is no longer the one on offer (another one was made, or the order moved on) */
  gone: 'This upgrade is no longer open: preview it again',
} as const;

/** What an upgrade reads of its order. */
export interface UpgradeableOrder {
  statusId: number;
  /** a delivery was submitted (ADR 0084) */
  delivered: boolean;
  /** a forced edit's difference still due (ADR 0034) */
  amountDueCents: number;
  workType: number;
  level: number;
  pages: number;
  spacing: 1 | 2;
  urgencyHours: number;
  deadline: Date;
  premiumWriter: boolean;
  preferredWriter: boolean;
  extraQualityCheck: boolean;
  originalityReport: boolean;
  onePageSummary: boolean;
  finalPriceCents: number;
}

/** `{ pages?, urgency?, extras }` of CONTRACT, after the wire's shape check. */
export interface UpgradeRequest {
  pages?: number | undefined;
  urgency?: number | undefined;
  extras: readonly string[];
}

/** What the upgrade changes and costs. */
export interface UpgradePlan {
  pages: number;
  urgencyHours: number;
  deadline: Date;
  extras: Record<UpgradeExtra, boolean>;
  /** the extras this upgrade turns on */
  addedExtras: UpgradeExtra[];
  currentPriceCents: number;
  /** the order's price after it: what it is now plus the difference */
  newPriceCents: number;
  differenceCents: number;
  /** each line of the price breakdown, after − before (they sum to the difference; no discount line moves) */
  priceDelta: Price;
}

export type UpgradeRefusal = {
  /** conflict: the order cannot be upgraded at all (409); validation: this request cannot (422) */
  kind: 'conflict' | 'validation';
  message: string;
  field?: 'pages' | 'urgency' | 'extras';
};

export type UpgradePlanResult = { ok: true; plan: UpgradePlan } | { ok: false; refusal: UpgradeRefusal };

/** Whether (and why not) the order can take an upgrade at all, before any request is looked at. */
export const upgradeBlocked = (order: Pick<UpgradeableOrder, 'statusId' | 'delivered' | 'amountDueCents'>): string | null => {
  if (order.statusId === ORDER_STATUS.unpaid) return UPGRADE_MESSAGE.unpaid;
  if (order.statusId === ORDER_STATUS.hold) return UPGRADE_MESSAGE.onHold;
  if (order.statusId === ORDER_STATUS.modified || order.amountDueCents > 0) return UPGRADE_MESSAGE.differenceDue;
  if (!UPGRADEABLE_STATUSES.includes(order.statusId)) return UPGRADE_MESSAGE.finished;
  if (order.delivered) return UPGRADE_MESSAGE.delivered;
  return null;
};

const priceInput = (o: {
  workType: number;
  level: number;
  urgencyHours: number;
  pages: number;
  spacing: 1 | 2;
  preferredWriter: boolean;
  extras: Record<UpgradeExtra, boolean>;
}): PriceInput => ({
  workType: o.workType,
  level: o.level,
  urgency: o.urgencyHours,
  pages: o.pages,
  spacing: o.spacing,
  premiumWriter: o.extras.premiumWriter,
  preferredWriter: o.preferredWriter,
  extraQualityCheck: o.extras.extraQualityCheck,
  originalityReport: o.extras.originalityReport,
  onePageSummary: o.extras.onePageSummary,
});

const orderExtras = (o: UpgradeableOrder): Record<UpgradeExtra, boolean> => ({
  premiumWriter: o.premiumWriter,
  extraQualityCheck: o.extraQualityCheck,
  onePageSummary: o.onePageSummary,
  originalityReport: o.originalityReport,
});

/**
 * ADR 0086: the one upgrade rule. The order as it is and as it would be are both priced with the current
 * tables by `calculatePrice`, without a discount; the difference is what the customer pays, and the new
 * price is the order's price plus it (the discount the order was bought with stays on what it bought).
 * A shorter urgency moves the deadline to where that urgency would have put it from the order's start
 * (deadline − current urgency); the writer must keep at least UPGRADE_MIN_LEAD_HOURS after any upgrade.
 */
export const planUpgrade = ({
  order,
  request,
  table,
  urgencies,
  pagesMax,
  now,
}: {
  order: UpgradeableOrder;
  request: UpgradeRequest;
  table: PriceTable;
  /** the site's urgencies, in hours */
  urgencies: readonly number[];
  pagesMax: number;
  now: Date;
}): UpgradePlanResult => {
  const refuse = (kind: UpgradeRefusal['kind'], message: string, field?: UpgradeRefusal['field']): UpgradePlanResult => ({
    ok: false,
    refusal: field ? { kind, message, field } : { kind, message },
  });
  const blocked = upgradeBlocked(order);
  if (blocked) return refuse('conflict', blocked);

  if (request.extras.length > UPGRADE_EXTRAS.length * 2) return refuse('validation', UPGRADE_MESSAGE.tooManyExtras, 'extras');
  const unknown = request.extras.find((key) => !isUpgradeExtra(key));
  if (unknown !== undefined) return refuse('validation', UPGRADE_MESSAGE.unknownExtra(unknown), 'extras');

  const pages = request.pages ?? order.pages;
  if (!Number.isSafeInteger(pages)) return refuse('validation', UPGRADE_MESSAGE.pagesNotWhole, 'pages');
  if (pages < order.pages) return refuse('validation', UPGRADE_MESSAGE.fewerPages(order.pages), 'pages');
  if (pages > pagesMax) return refuse('validation', UPGRADE_MESSAGE.tooManyPages(pagesMax), 'pages');

  const urgencyHours = request.urgency ?? order.urgencyHours;
  if (urgencyHours !== order.urgencyHours) {
    if (!Number.isSafeInteger(urgencyHours) || !urgencies.includes(urgencyHours))
      return refuse('validation', UPGRADE_MESSAGE.unknownUrgency, 'urgency');
    if (urgencyHours > order.urgencyHours) return refuse('validation', UPGRADE_MESSAGE.longerUrgency, 'urgency');
  }

  const extras = orderExtras(order);
  const addedExtras: UpgradeExtra[] = [];
  for (const key of new Set(request.extras)) {
    if (isUpgradeExtra(key) && !extras[key]) {
      extras[key] = true;
      addedExtras.push(key);
    }
  }
  if (extras.extraQualityCheck && urgencyHours < ORDER_FORM_LIMITS.extraQualityCheckMinHours)
    return refuse('validation', UPGRADE_MESSAGE.qualityCheckShort, addedExtras.includes('extraQualityCheck') ? 'extras' : 'urgency');
  if (addedExtras.includes('onePageSummary') && order.workType === WORK_TYPE.presentation)
    return refuse('validation', UPGRADE_MESSAGE.noSummaryForSlides, 'extras');

  if (pages === order.pages && urgencyHours === order.urgencyHours && addedExtras.length === 0)
    return refuse('validation', UPGRADE_MESSAGE.nothingAdded);

  const deadline =
    urgencyHours === order.urgencyHours
      ? order.deadline
      : new Date(order.deadline.getTime() - (order.urgencyHours - urgencyHours) * HOUR_MS);
  if (deadline.getTime() - now.getTime() < UPGRADE_MIN_LEAD_HOURS * HOUR_MS) {
    return urgencyHours === order.urgencyHours
      ? refuse('conflict', UPGRADE_MESSAGE.tooLate)
      : refuse('validation', UPGRADE_MESSAGE.tooLittleTime, 'urgency');
  }

  const base = { workType: order.workType, level: order.level, spacing: order.spacing, preferredWriter: order.preferredWriter };
  const before = calculatePrice(
    table,
    priceInput({ ...base, urgencyHours: order.urgencyHours, pages: order.pages, extras: orderExtras(order) }),
  );
  const after = calculatePrice(table, priceInput({ ...base, urgencyHours, pages, extras }));
  if (!before.ok || !after.ok) return refuse('validation', UPGRADE_MESSAGE.noRate, after.ok ? undefined : 'urgency');
  const differenceCents = after.price.finalPrice - before.price.finalPrice;
  // Adding never costs less under one table; a table that says otherwise is not a basis to charge from.
  if (differenceCents <= 0) return refuse('validation', UPGRADE_MESSAGE.nothingAdded);
  return {
    ok: true,
    plan: {
      pages,
      urgencyHours,
      deadline,
      extras,
      addedExtras,
      currentPriceCents: order.finalPriceCents,
      newPriceCents: order.finalPriceCents + differenceCents,
      differenceCents,
      priceDelta: priceDelta(after.price, before.price),
    },
  };
};

const priceDelta = (after: Price, before: Price): Price => ({
  basicPrice: after.basicPrice - before.basicPrice,
  pricePremiumWriter: after.pricePremiumWriter - before.pricePremiumWriter,
  pricePreferedWriter: after.pricePreferedWriter - before.pricePreferedWriter,
  priceExtraQualityCheck: after.priceExtraQualityCheck - before.priceExtraQualityCheck,
  priceQuality: after.priceQuality - before.priceQuality,
  priceOnePageSummary: after.priceOnePageSummary - before.priceOnePageSummary,
  priceDiscount: after.priceDiscount - before.priceDiscount,
  finalPrice: after.finalPrice - before.finalPrice,
});

/** Hours as the urgency list names them: '3 days', '12 hours'. */
export const urgencyLabel = (hours: number): string => (hours >= 48 && hours % 24 === 0 ? `${hours / 24} days` : `${hours} hours`);
