// The zod-free half of the admin context (ADR 0020, 0090): messages and plain checks.
import { amountToCents } from '../../money/index';

/** ADR 0090: the admin's messages (not SPEC texts). */
export const ADMIN_MESSAGE = {
  adminOnly: 'Only an admin may do this',
  twoFactorRequired: 'Admins must turn on two-factor sign-in first: open Admin, then Two-factor sign-in.',
  priceNotPositive: 'A price must be more than 0',
  extraNegative: 'An extra cannot be negative',
  percentOver100: 'A percent discount cannot be more than 100 %',
  percentOrAmount: 'Give a percent or a fixed amount, not both',
  noDiscount: 'Give a percent or a fixed amount above 0',
  endsBeforeStart: 'The end must be after the start',
  codeFormat: 'Use 3 to 32 letters, digits, dashes or underscores',
  codeTaken: 'This code already exists',
  codeEditedElsewhere: 'Someone else saved this code after you opened it. Reload to see their changes, then edit again.',
  duplicateRate: 'This work type, level and urgency appears twice',
  unknownUrgency: 'Not one of the site’s urgencies',
  noRates: 'A category needs at least one rate',
  notStaff: 'No staff account has this id',
  cannotSuspendSelf: 'You cannot suspend your own account',
  staffEmailTaken: 'An account with this email already exists',
} as const;

/** SPEC-free limits of an admin-made code (ADR 0090). */
export const ADMIN_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
export const ADMIN_DISCOUNT_LIMIT_MAX = 1_000_000;

/** Messages a code's limits give a customer (ADR 0090); the wizard shows them under the code field. */
export const DISCOUNT_LIMIT_MESSAGE = {
  notStarted: 'This discount code is not active yet',
  ended: 'This discount code has expired',
  firstOrderOnly: 'This discount code is for a first order only',
  perCustomerLimit: 'You have already used this discount code',
  totalLimit: 'This discount code has been used up',
} as const;

export interface DiscountLimits {
  firstOrderOnly: boolean;
  perCustomerLimit: number | null;
  totalLimit: number | null;
  startsAt: Date | null;
  endsAt: Date | null;
}
export interface DiscountUsage {
  now: Date;
  /** the customer's orders other than the one being priced; null when nobody is signed in (the apply check) */
  customerOrders: number | null;
  /** the customer's other orders with this code; null when nobody is signed in */
  customerUses: number | null;
  /** every other order with this code */
  totalUses: number;
}

/**
 * ADR 0090: why a code cannot be used now, or null. Uses are orders placed with the code that were not
 * canceled; the order being edited does not count against itself. Without a customer (a visitor applying a
 * code in the wizard) the per-customer rules wait for the order.
 */
export const discountLimitProblem = (limits: DiscountLimits, usage: DiscountUsage): string | null => {
  if (limits.startsAt && usage.now < limits.startsAt) return DISCOUNT_LIMIT_MESSAGE.notStarted;
  if (limits.endsAt && usage.now >= limits.endsAt) return DISCOUNT_LIMIT_MESSAGE.ended;
  if (limits.totalLimit !== null && usage.totalUses >= limits.totalLimit) return DISCOUNT_LIMIT_MESSAGE.totalLimit;
  if (limits.firstOrderOnly && usage.customerOrders !== null && usage.customerOrders > 0) return DISCOUNT_LIMIT_MESSAGE.firstOrderOnly;
  if (limits.perCustomerLimit !== null && usage.customerUses !== null && usage.customerUses >= limits.perCustomerLimit) {
    return DISCOUNT_LIMIT_MESSAGE.perCustomerLimit;
  }
  return null;
};

export interface AdminCodeInput {
  code: string;
  percent: number;
  amount: number;
  perCustomerLimit: number | null;
  totalLimit: number | null;
  startsAt: string | null;
  endsAt: string | null;
}

/** ADR 0090: an admin's code, field by field: a percent (1–100) or a fixed amount, limits, a start before the end. */
export const adminCodeProblems = (c: AdminCodeInput): Record<string, string[]> => {
  const problems: Record<string, string[]> = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (!ADMIN_CODE_PATTERN.test(c.code)) add('code', ADMIN_MESSAGE.codeFormat);
  if (!Number.isInteger(c.percent) || c.percent < 0) add('percent', ADMIN_MESSAGE.noDiscount);
  else if (c.percent > 100) add('percent', ADMIN_MESSAGE.percentOver100);
  const amountCents = Number.isFinite(c.amount) ? amountToCents(c.amount) : -1;
  if (amountCents < 0) add('amount', ADMIN_MESSAGE.noDiscount);
  if (c.percent > 0 && amountCents > 0) add('amount', ADMIN_MESSAGE.percentOrAmount);
  if (c.percent <= 0 && amountCents <= 0 && !problems.percent && !problems.amount) add('percent', ADMIN_MESSAGE.noDiscount);
  if (c.startsAt && c.endsAt && new Date(c.endsAt).getTime() <= new Date(c.startsAt).getTime())
    add('endsAt', ADMIN_MESSAGE.endsBeforeStart);
  return problems;
};

export interface AdminPriceRows {
  rates: { idWorkType: number; idLevel: number; urgency: number; pricePerPage: number }[];
  extras: { key: string; kind: 'percent' | 'flat'; value: number }[];
  maxAmountDiscount: number;
}

/**
 * ADR 0090: a category's price tables as an admin publishes them: every rate above 0 (zero or a negative
 * price is refused with a clear message), one row per work type, level and urgency, urgencies the site
 * has, extras not negative. Keys are the wire's paths (`rates.3.pricePerPage`).
 */
export const adminPriceProblems = (rows: AdminPriceRows, urgencyHours: readonly number[]): Record<string, string[]> => {
  const problems: Record<string, string[]> = {};
  const add = (field: string, message: string) => (problems[field] ??= []).push(message);
  if (rows.rates.length === 0) add('rates', ADMIN_MESSAGE.noRates);
  const seen = new Set<string>();
  rows.rates.forEach((r, i) => {
    if (!(amountToCents(r.pricePerPage) > 0)) add(`rates.${i}.pricePerPage`, ADMIN_MESSAGE.priceNotPositive);
    if (!urgencyHours.includes(r.urgency)) add(`rates.${i}.urgency`, ADMIN_MESSAGE.unknownUrgency);
    const key = `${r.idWorkType}:${r.idLevel}:${r.urgency}`;
    if (seen.has(key)) add(`rates.${i}`, ADMIN_MESSAGE.duplicateRate);
    seen.add(key);
  });
  rows.extras.forEach((e, i) => {
    if (e.value < 0) add(`extras.${i}.value`, ADMIN_MESSAGE.extraNegative);
    else if (e.kind === 'percent' && e.value > 100) add(`extras.${i}.value`, ADMIN_MESSAGE.percentOver100);
  });
  if (rows.maxAmountDiscount < 0) add('maxAmountDiscount', ADMIN_MESSAGE.extraNegative);
  return problems;
};

/** The audit log's action names (ADR 0090): what changed, by whom is the entry's actor. */
export const AUDIT_ACTION = {
  orderStatus: 'order.status',
  orderWriter: 'order.writer',
  orderPayment: 'order.payment',
  orderFile: 'order.file',
  orderDelivery: 'order.delivery',
  orderExtension: 'order.extension',
  revisionStatus: 'revision.status',
  revisionFile: 'revision.file',
  refundClaim: 'money.refund-claim',
  unappliedApply: 'money.unapplied-apply',
  unappliedRefund: 'money.unapplied-refund',
  disputeResolve: 'dispute.resolve',
  paymentAttention: 'money.attention',
  prices: 'prices.update',
  discountCreate: 'discount.create',
  discountUpdate: 'discount.update',
  staffAdd: 'staff.add',
  staffSuspend: 'staff.suspend',
  staffPasswordReset: 'staff.password-reset',
  twoFactorOn: 'staff.two-factor-on',
} as const;
export type AuditAction = (typeof AUDIT_ACTION)[keyof typeof AUDIT_ACTION];

/** One CSV field (RFC 4180), safe to open in a spreadsheet: a leading =, +, - or @ is quoted out as text. */
export const csvField = (value: unknown): string => {
  const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};
