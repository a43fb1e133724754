// The zod-free half of the loyalty context (ADR 0020): points, rules, the earning rule, generation.
import type { Cents } from '../../money/index';

/** SPEC §3 "Loyalty": rules `[{from, to, percent}]`; `to` null is "and above". */
export interface LoyaltyRule {
  from: number;
  to: number | null;
  percent: number;
}

/**
 * CONTRACT "Revisions, loyalty, referrals, privacy": the rules start at 0 points with 0 %, so a new
 * customer has a current rule. Ranges are whole points, both ends included, without gaps (ADR 0050).
 */
export const LOYALTY_RULES: readonly LoyaltyRule[] = [
  { from: 0, to: 99, percent: 0 },
  { from: 100, to: 299, percent: 3 },
  { from: 300, to: 599, percent: 5 },
  { from: 600, to: 999, percent: 7 },
  { from: 1000, to: null, percent: 10 },
];

/** ADR 0050, the earning rule: one point per whole US dollar of a paid payment, counted once per payment. */
export const LOYALTY_POINTS_PER_DOLLAR = 1;
export const LOYALTY_EARNING_RULE_TEXT =
  'You earn 1 point for every whole US dollar you pay for an order. Points of a refunded order are taken back (in proportion for a partial refund).';

export const LOYALTY_MESSAGE = {
  // SPEC §5 "Discount"
  notEnoughPoints: "You don't have enough points to generate discount.",
  // SPEC §8 "Success notices"
  copied: 'Copied to clipboard!',
} as const;

/** Points a paid payment earns (ADR 0050): floor of whole dollars; never negative. */
export const pointsForPayment = (amountCents: Cents): number => {
  if (!Number.isSafeInteger(amountCents)) throw new RangeError(`amountCents must be an integer, got ${amountCents}`);
  return amountCents <= 0 ? 0 : Math.floor(amountCents / 100) * LOYALTY_POINTS_PER_DOLLAR;
};

/** True when the rules are sorted, start at 0, have no gap or overlap and only the last is open-ended. */
export const areLoyaltyRulesValid = (rules: readonly LoyaltyRule[]): boolean => {
  if (rules.length === 0 || rules[0]?.from !== 0) return false;
  return rules.every((rule, i) => {
    const next = rules[i + 1];
    if (!Number.isInteger(rule.from) || rule.percent < 0 || rule.percent > 100) return false;
    if (next === undefined) return rule.to === null;
    return rule.to !== null && rule.to >= rule.from && next.from === rule.to + 1 && next.percent >= rule.percent;
  });
};

/**
 * The rule the balance falls in. A balance below 0 (a refund took back points already spent, ADR 0050)
 * is treated as 0: the first rule.
 */
export const currentLoyaltyRule = (points: number, rules: readonly LoyaltyRule[] = LOYALTY_RULES): LoyaltyRule => {
  const p = Math.max(0, Math.floor(points));
  const found = rules.find((r) => p >= r.from && (r.to === null || p <= r.to));
  const first = rules[0];
  if (!found && !first) throw new RangeError('no loyalty rules');
  return found ?? (first as LoyaltyRule);
};

export const nextLoyaltyRule = (points: number, rules: readonly LoyaltyRule[] = LOYALTY_RULES): LoyaltyRule | null => {
  const current = currentLoyaltyRule(points, rules);
  return rules[rules.indexOf(current) + 1] ?? null;
};

/** Points still missing to reach the next rule; null on the last rule. */
export const pointsToNextRule = (points: number, rules: readonly LoyaltyRule[] = LOYALTY_RULES): number | null => {
  const next = nextLoyaltyRule(points, rules);
  return next === null ? null : next.from - Math.max(0, Math.floor(points));
};

/**
 * ADR 0097: how a percent reads in the loyalty UI: "7%", no space (issue 27). One formatter, so every
 * loyalty screen writes it the same way.
 */
export const formatPercent = (percent: number): string => `${percent}%`;

/**
 * ADR 0097: "close to the next level" is within a fifth of the way from the current level's start to the
 * next level's (at least 1 point): 600–999 → 1000 is close from 920 points on (80 missing or fewer). The last
 * level has no next one, so nothing is close there.
 */
export const LOYALTY_CLOSE_SHARE = 0.2;

export interface NextLevelHint {
  /** points still missing to reach the next level */
  pointsMore: number;
  /** the next level's percent */
  percent: number;
}

/** ADR 0097: the nudge of the generate dialog ("17 points more gives 10%"), or null when not close. */
export const nextLevelHint = (points: number, rules: readonly LoyaltyRule[] = LOYALTY_RULES): NextLevelHint | null => {
  const current = currentLoyaltyRule(points, rules);
  const next = nextLoyaltyRule(points, rules);
  const missing = pointsToNextRule(points, rules);
  if (next === null || missing === null) return null;
  const window = Math.max(1, Math.floor((next.from - current.from) * LOYALTY_CLOSE_SHARE));
  return missing <= window ? { pointsMore: missing, percent: next.percent } : null;
};

/** The hint's sentence (ADR 0097). */
export const nextLevelHintText = ({ pointsMore, percent }: NextLevelHint): string =>
  `${pointsMore.toLocaleString('en-US')} ${pointsMore === 1 ? 'point' : 'points'} more gives ${formatPercent(percent)}`;

export type LoyaltyGeneration = { ok: true; percent: number; pointsSpent: number; pointsLeft: number } | { ok: false; message: string };

/**
 * ADR 0050: generating a code needs a current rule with percent above 0 (SPEC §5); it spends the points
 * that reach that rule (its `from`), the rest stays for the next code.
 */
export const loyaltyGeneration = (points: number, rules: readonly LoyaltyRule[] = LOYALTY_RULES): LoyaltyGeneration => {
  const rule = currentLoyaltyRule(points, rules);
  if (points <= 0 || rule.percent <= 0) return { ok: false, message: LOYALTY_MESSAGE.notEnoughPoints };
  return { ok: true, percent: rule.percent, pointsSpent: rule.from, pointsLeft: points - rule.from };
};

/**
 * State of a generated single-use code (ADR 0050, 0051): used once an order is created with it; voided
 * (ADR 0072) when a refund took back the points it was bought with before it was used.
 */
export const DISCOUNT_CODE_STATE = { active: 'active', used: 'used', expired: 'expired', voided: 'voided' } as const;
export type DiscountCodeState = (typeof DISCOUNT_CODE_STATE)[keyof typeof DISCOUNT_CODE_STATE];

export const discountCodeState = (
  { usedAt, expiresAt, active = true }: { usedAt: Date | null; expiresAt: Date | null; active?: boolean },
  now: Date,
): DiscountCodeState => {
  if (usedAt !== null) return DISCOUNT_CODE_STATE.used;
  if (!active) return DISCOUNT_CODE_STATE.voided;
  if (expiresAt !== null && expiresAt.getTime() <= now.getTime()) return DISCOUNT_CODE_STATE.expired;
  return DISCOUNT_CODE_STATE.active;
};

/** The kinds of entries of the points ledger. */
export const LEDGER_KIND = { earned: 'earned', reversed: 'reversed', redeemed: 'redeemed', voided: 'voided' } as const;
export type LedgerKind = (typeof LEDGER_KIND)[keyof typeof LEDGER_KIND];

/** The ledger's key of each entry: the database refuses a second entry with the same key. */
export const ledgerKey = {
  earned: (paymentId: string) => `earned:payment:${paymentId}`,
  /** Before ADR 0072: one reversal per order. */
  reversed: (orderId: number) => `reversed:order:${orderId}`,
  /** ADR 0072: one reversal per refund (its transaction). */
  reversedByRefund: (transactionId: number) => `reversed:refund:${transactionId}`,
  redeemed: (code: string) => `redeemed:code:${code}`,
  voided: (code: string) => `voided:code:${code}`,
};

/**
 * ADR 0072: the points a refund takes back now. The order's earnings in proportion to the money refunded
 * so far, rounded down (integer math on the running totals, so a partial refund never takes more than its
 * share and the refunds that make it whole take exactly all), less what earlier refunds took back.
 */
export const pointsOwedOnRefund = ({
  earnedPoints,
  takenBackPoints,
  paidCents,
  refundedCents,
}: {
  earnedPoints: number;
  takenBackPoints: number;
  paidCents: Cents;
  refundedCents: Cents;
}): number => {
  for (const [name, v] of Object.entries({ earnedPoints, takenBackPoints, paidCents, refundedCents }))
    if (!Number.isSafeInteger(v)) throw new RangeError(`${name} must be an integer, got ${v}`);
  if (earnedPoints <= 0 || refundedCents <= 0) return 0;
  const share = paidCents <= 0 || refundedCents >= paidCents ? earnedPoints : Math.floor((earnedPoints * refundedCents) / paidCents);
  return Math.max(0, share - Math.max(0, takenBackPoints));
};

/**
 * ADR 0072: how a refund takes its points back without the balance going below 0. When the balance
 * covers what is owed, it is taken. Otherwise the customer's unused loyalty code (bought with points
 * that were never really earned) is voided and its points given back first; what the balance still
 * cannot cover is written off (the balance stops at 0).
 */
export const refundPointsPlan = ({
  owed,
  balance,
  openCodePoints,
}: {
  owed: number;
  balance: number;
  /** The points the customer's unused loyalty code cost, or null when there is none. */
  openCodePoints: number | null;
}): { voidCode: boolean; restored: number; takenBack: number } => {
  if (owed <= 0) return { voidCode: false, restored: 0, takenBack: 0 };
  if (balance >= owed) return { voidCode: false, restored: 0, takenBack: owed };
  const restored = openCodePoints !== null && openCodePoints > 0 ? openCodePoints : 0;
  return { voidCode: restored > 0, restored, takenBack: Math.min(owed, Math.max(0, balance + restored)) };
};
