// The zod-free half of the referral context (ADR 0020, 0051).
import { ORDER_STATUS, type OrderStatusId } from '../../order/rules/index';
import { DISCOUNT_CODE_STATE, discountCodeState } from '../../loyalty/rules/index';

/** SPEC §4 "Referral status filter": 0 is "all" (a filter value, never a referral's status). */
export const REFERRAL_STATUS = {
  all: 0,
  newReferral: 1,
  inProgress: 2,
  readyToUse: 3,
  discountGenerated: 4,
  discountUsed: 5,
  discountExpired: 6,
} as const;
export type ReferralStatusId = Exclude<(typeof REFERRAL_STATUS)[keyof typeof REFERRAL_STATUS], 0>;
export type ReferralFilterId = (typeof REFERRAL_STATUS)[keyof typeof REFERRAL_STATUS];

export const REFERRAL_STATUS_NAME: Record<ReferralFilterId, string> = {
  0: 'All',
  1: 'New referral',
  2: 'In progress',
  3: 'Ready to use',
  4: 'Discount generated',
  5: 'Discount used',
  6: 'Discount expired',
};
export const REFERRAL_FILTER_IDS: readonly ReferralFilterId[] = [0, 1, 2, 3, 4, 5, 6];
export const isReferralFilterId = (n: number): n is ReferralFilterId => (REFERRAL_FILTER_IDS as readonly number[]).includes(n);

/** ADR 0051: what a ready referral is worth to the referrer, and how long the code lives. */
export const REFERRAL_DISCOUNT_PERCENT = 10;
export const REFERRAL_DISCOUNT_TTL_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;
export const referralDiscountExpiry = (generatedAt: Date): Date => new Date(generatedAt.getTime() + REFERRAL_DISCOUNT_TTL_DAYS * DAY_MS);

export const REFERRAL_MESSAGE = {
  // SPEC §8 "Referral discount failure"
  generationFailed: 'Problem occurred while generating your discount',
} as const;

/** Order statuses that mean "paid and not given back": a refunded (7) or canceled (8) order does not count. */
export const PAID_ORDER_STATUSES: readonly OrderStatusId[] = [
  ORDER_STATUS.paid,
  ORDER_STATUS.inProgress,
  ORDER_STATUS.completed,
  ORDER_STATUS.hold,
  ORDER_STATUS.modified,
];

/** The facts a referral's status is derived from (ADR 0051: derived, never a stored counter). */
export interface ReferralFacts {
  /** the referred customer has placed at least one order */
  hasOrder: boolean;
  /** at least one of their orders is paid and not refunded or canceled */
  hasPaidOrder: boolean;
  /** the discount generated from this referral, if any */
  discount: { usedAt: Date | null; expiresAt: Date | null } | null;
}

/**
 * SPEC §4, CONTRACT: 1 on sign-up, 2 once they place an order, 3 (ready) once one is paid, 4 when a
 * discount is generated, then 5 used or 6 expired. A refund before generation takes 3 back to 2.
 */
export const referralStatus = (facts: ReferralFacts, now: Date): ReferralStatusId => {
  if (facts.discount !== null) {
    const state = discountCodeState(facts.discount, now);
    if (state === DISCOUNT_CODE_STATE.used) return REFERRAL_STATUS.discountUsed;
    if (state === DISCOUNT_CODE_STATE.expired) return REFERRAL_STATUS.discountExpired;
    return REFERRAL_STATUS.discountGenerated;
  }
  if (facts.hasPaidOrder) return REFERRAL_STATUS.readyToUse;
  if (facts.hasOrder) return REFERRAL_STATUS.inProgress;
  return REFERRAL_STATUS.newReferral;
};

/** Only a ready referral generates a discount (CONTRACT). */
export const canGenerateReferralDiscount = (status: ReferralStatusId): boolean => status === REFERRAL_STATUS.readyToUse;

/** SPEC §4 filter: 0 keeps every status. */
export const matchesReferralFilter = (status: ReferralStatusId, filter: ReferralFilterId): boolean =>
  filter === REFERRAL_STATUS.all || status === filter;

export const REFERRAL_FRAUD = { self: 'self', loop: 'loop', sameDevice: 'same_device' } as const;
export type ReferralFraud = (typeof REFERRAL_FRAUD)[keyof typeof REFERRAL_FRAUD];

/**
 * ADR 0051: a sign-up earns its referrer nothing when it refers itself, closes a loop (the referrer was
 * referred by the new account, directly or further up), or comes from a device (the client's hashDevice)
 * the referrer or any earlier account already used. Null when the referral counts.
 */
export const referralFraud = ({
  referrerId,
  referredId,
  referrerChain,
  hashDevice,
  referrerDevices,
  devicesOfOtherAccounts,
}: {
  referrerId: number;
  referredId: number;
  /** the referrer's own referrers, nearest first */
  referrerChain: readonly number[];
  hashDevice: string;
  referrerDevices: readonly string[];
  /** device hashes other accounts (not the new one) signed up or signed in with */
  devicesOfOtherAccounts: readonly string[];
}): ReferralFraud | null => {
  if (referrerId === referredId) return REFERRAL_FRAUD.self;
  if (referrerChain.includes(referredId)) return REFERRAL_FRAUD.loop;
  const device = hashDevice.trim();
  if (device !== '' && referrerDevices.includes(device)) return REFERRAL_FRAUD.self;
  if (device !== '' && devicesOfOtherAccounts.includes(device)) return REFERRAL_FRAUD.sameDevice;
  return null;
};

/** The referral link (SPEC §2 "/order?{referral query}", §7 referralInfo url). */
export const referralUrl = (origin: string, referrerId: number): string => `${origin}/order?ref_id=${referrerId}`;

/** How a referred friend is shown to the referrer: first name and a masked email. */
export const maskEmail = (email: string): string => {
  const at = email.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
};
