import { DEFAULT_PAYMENT_SYSTEM, PAYMENT_SYSTEMS, type PaymentSystem } from '../settings/rules/index';

/** SPEC §8 "Payment error modal" and §4 "Payment flow" texts. */
export const PAYMENT_MESSAGE = {
  redirecting: 'Please wait for redirect to payment system...',
  problem: "Looks like there's been a problem with your payment for order",
  chooseAlternative: 'Choose alternative payment method',
  contactSupport: 'Contact Support',
} as const;

export const PAYMENT_SYSTEM_NAME: Record<PaymentSystem, string> = {
  paycore: 'Card (paycore.io)',
  paypal: 'PayPal',
  fondy: 'Fondy',
  paymentwall: 'Paymentwall',
};

/**
 * ADR 0071: where an order's money comes from: a provider, or a payment support records by hand with
 * its reference (`manual`: a bank transfer). Only the providers are ever offered at checkout.
 */
export const MANUAL_PAYMENT_PROVIDER = 'manual';
export const MONEY_PROVIDERS = [...PAYMENT_SYSTEMS, MANUAL_PAYMENT_PROVIDER] as const;
export type MoneyProvider = (typeof MONEY_PROVIDERS)[number];
export const MONEY_PROVIDER_NAME: Record<MoneyProvider, string> = { ...PAYMENT_SYSTEM_NAME, manual: 'Bank transfer' };
/** A provider with an adapter (not a payment recorded by hand). */
export const isPaymentSystem = (provider: string): provider is PaymentSystem => (PAYMENT_SYSTEMS as readonly string[]).includes(provider);

/**
 * SPEC §4: the allowed systems come from the site category and work-type rule
 * (`payments_rules[category][workType]`, else `[category].default`), else the default system.
 */
export const allowedPaymentSystems = (
  rules: Record<string, Record<string, readonly string[]>>,
  siteCategory: number,
  workType: number,
): PaymentSystem[] => {
  const byCategory = rules[String(siteCategory)];
  const listed = byCategory?.[String(workType)] ?? byCategory?.default ?? [];
  const known = listed.filter((s): s is PaymentSystem => (PAYMENT_SYSTEMS as readonly string[]).includes(s));
  return known.length > 0 ? [...new Set(known)] : [DEFAULT_PAYMENT_SYSTEM];
};

export type PaymentStart = { kind: 'chooser'; systems: PaymentSystem[] } | { kind: 'redirect'; system: PaymentSystem };

/** SPEC §4: with more than one system and multipayment on, the chooser opens; otherwise the first system. */
export const paymentStart = (systems: readonly PaymentSystem[], multipayment: boolean): PaymentStart => {
  const first = systems[0] ?? DEFAULT_PAYMENT_SYSTEM;
  return systems.length > 1 && multipayment ? { kind: 'chooser', systems: [...systems] } : { kind: 'redirect', system: first };
};

/** SPEC §7 payment redirect paths, each with the device hash. */
export const paymentRedirectPath = (system: PaymentSystem, uid: string, hashDevice: string): string => {
  const q = `hashDevice=${encodeURIComponent(hashDevice)}`;
  switch (system) {
    case 'paymentwall':
      return `/checkout/paymentwall/order/${encodeURIComponent(uid)}?${q}`;
    case 'fondy':
      return `/checkout/fondy/order/${encodeURIComponent(uid)}?${q}`;
    case 'paycore':
      return `/checkout/paycoreio/order/${encodeURIComponent(uid)}?${q}`;
    case 'paypal':
      return `/pp/sdk/redirect?uid=${encodeURIComponent(uid)}&${q}`;
  }
};

/** ADR 0086: the checkout of an upgrade's difference, the order's checkout paths with `upgrade/{upgradeId}` (PayPal too). */
export const upgradeRedirectPath = (system: PaymentSystem, upgradeId: string, hashDevice: string): string => {
  const name = system === 'paycore' ? 'paycoreio' : system;
  return `/checkout/${name}/upgrade/${encodeURIComponent(upgradeId)}?hashDevice=${encodeURIComponent(hashDevice)}`;
};

/** SPEC §8: the alternative-method button shows when multipayment is on and the order is not pending. */
export const showsAlternativePayment = (multipayment: boolean, pending: boolean): boolean => multipayment && !pending;
