import type { SiteSettings } from '@app/domain/settings';

/** What the payment flow needs of an order (the detail and the dashboard list item both carry it). */
export interface PayableOrder {
  id: number;
  uid: string;
  status: number;
  siteCategory: number;
  workType: { id: number };
  /** USD with 2 decimals (CONTRACT) */
  finalPrice: number;
  /** a payment attempt awaits its provider's answer (SPEC §8: no alternative method then) */
  pending: boolean;
}

/** The site settings the payment flow reads (SPEC §3 "Site settings"). */
export type PaymentSettings = Pick<SiteSettings, 'payments_rules' | 'multipayment' | 'email'>;

/** ADR 0086: an upgrade of a paid order to pay: its id (the checkout path's) and the difference, USD with 2 decimals. */
export interface UpgradeCharge {
  upgradeId: string;
  difference: number;
}
