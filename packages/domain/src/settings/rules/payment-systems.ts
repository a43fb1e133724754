/** SPEC §1 payment providers; SPEC §9 default paycore. */
export const PAYMENT_SYSTEMS = ['paycore', 'paypal', 'fondy', 'paymentwall'] as const;
export type PaymentSystem = (typeof PAYMENT_SYSTEMS)[number];
export const DEFAULT_PAYMENT_SYSTEM: PaymentSystem = 'paycore';
