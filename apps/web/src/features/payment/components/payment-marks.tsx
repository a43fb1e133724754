import type { ReactNode } from 'react';
import type { PaymentSystem } from '@app/domain/settings';

/**
 * The providers' marks on the payment method chooser (issue 27): drawn here as small inline SVGs (a card and
 * word marks in each provider's colours), not downloaded, so the chooser needs no request of its own. They
 * are decorative: the button's name says the provider.
 */
const wordMark = (children: ReactNode, width = 64) => (
  <svg viewBox={`0 0 ${width + 8} 20`} width={width + 8} height={20} aria-hidden="true" focusable="false" className="shrink-0">
    {/* On a white tile of its own, as providers show their marks: readable on the dark theme's buttons too. */}
    <rect x="0.5" y="0.5" width={width + 7} height="19" rx="3" fill="#ffffff" stroke="#cbd5e1" />
    <g transform="translate(4 0)">{children}</g>
  </svg>
);

export const PAYMENT_MARK: Record<PaymentSystem, ReactNode> = {
  paycore: (
    <svg viewBox="0 0 32 20" width={32} height={20} aria-hidden="true" focusable="false" className="shrink-0">
      <rect x="0.5" y="0.5" width="31" height="19" rx="3" fill="#1e3a8a" />
      <rect x="0.5" y="5" width="31" height="3.5" fill="#0f172a" />
      <rect x="4" y="12" width="8" height="3" rx="1" fill="#fbbf24" />
    </svg>
  ),
  paypal: wordMark(
    <text x="0" y="15" fontFamily="Verdana, sans-serif" fontSize="15" fontStyle="italic" fontWeight="700">
      <tspan fill="#003087">Pay</tspan>
      <tspan fill="#0070e0">Pal</tspan>
    </text>,
  ),
  fondy: wordMark(
    <text x="0" y="15" fontFamily="Verdana, sans-serif" fontSize="15" fontWeight="700" fill="#1f2937">
      fondy
    </text>,
    56,
  ),
  paymentwall: wordMark(
    <text x="0" y="14" fontFamily="Verdana, sans-serif" fontSize="11" fontWeight="700" fill="#b91c1c">
      paymentwall
    </text>,
    84,
  ),
};

/** One line each on what a method takes. */
export const PAYMENT_LINE: Record<PaymentSystem, string> = {
  paycore: 'Card: Visa, Mastercard and others',
  paypal: 'PayPal balance or card',
  fondy: 'Card, Apple Pay or Google Pay',
  paymentwall: 'Card or a local payment method',
};
