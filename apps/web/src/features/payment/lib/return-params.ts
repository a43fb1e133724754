/**
 * The order page's payment query parameters. CONTRACT "Payments": the provider returns the buyer with
 * `?payment=success` or `?payment=fail`. ADR 0023: `?pay=1` opens the payment flow at once (the wizard's
 * express checkout path, SPEC §4).
 */
export const PAYMENT_PARAM = { outcome: 'payment', payNow: 'pay' } as const;

export type PaymentOutcome = 'success' | 'fail';

export const paymentOutcome = (params: URLSearchParams): PaymentOutcome | null => {
  const value = params.get(PAYMENT_PARAM.outcome);
  return value === 'success' || value === 'fail' ? value : null;
};

/** While the return is being confirmed the order still reads unpaid: no second Pay meanwhile. */
export const isConfirmingPayment = (params: URLSearchParams): boolean => paymentOutcome(params) === 'success';

/** The order page that opens the payment flow straight away (ADR 0023). */
export const payNowSearch = `?${PAYMENT_PARAM.payNow}=1`;
