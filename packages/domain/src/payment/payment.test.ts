import { describe, expect, it } from 'vitest';
import { allowedPaymentSystems, paymentRedirectPath, paymentStart, showsAlternativePayment } from './index';

const rules = { '1': { '3': ['paypal'], default: ['paycore', 'paypal', 'fondy', 'paymentwall'] }, '4': { default: ['bogus'] } };

describe('allowed systems come from the site category and work-type rule (SPEC §4)', () => {
  it('uses the work type rule first', () => {
    expect(allowedPaymentSystems(rules, 1, 3)).toEqual(['paypal']);
  });
  it('falls back to the category default', () => {
    expect(allowedPaymentSystems(rules, 1, 1)).toEqual(['paycore', 'paypal', 'fondy', 'paymentwall']);
  });
  it('falls back to paycore when nothing known is listed (SPEC §9)', () => {
    expect(allowedPaymentSystems(rules, 4, 1)).toEqual(['paycore']);
    expect(allowedPaymentSystems(rules, 5, 1)).toEqual(['paycore']);
  });
});

describe('the chooser opens with more than one system and multipayment on (SPEC §4)', () => {
  it('opens the chooser', () => {
    expect(paymentStart(['paycore', 'paypal'], true)).toEqual({ kind: 'chooser', systems: ['paycore', 'paypal'] });
  });
  it('uses the first system otherwise', () => {
    expect(paymentStart(['fondy', 'paypal'], false)).toEqual({ kind: 'redirect', system: 'fondy' });
    expect(paymentStart(['paypal'], true)).toEqual({ kind: 'redirect', system: 'paypal' });
  });
});

describe('payment redirects (SPEC §7)', () => {
  it.each([
    ['paymentwall', '/checkout/paymentwall/order/U1?hashDevice=h'],
    ['paycore', '/checkout/paycoreio/order/U1?hashDevice=h'],
    ['fondy', '/checkout/fondy/order/U1?hashDevice=h'],
    ['paypal', '/pp/sdk/redirect?uid=U1&hashDevice=h'],
  ] as const)('%s goes to %s', (system, path) => {
    expect(paymentRedirectPath(system, 'U1', 'h')).toBe(path);
  });
});

describe('payment error modal (SPEC §8)', () => {
  it('offers an alternative method only with multipayment on and the order not pending', () => {
    expect(showsAlternativePayment(true, false)).toBe(true);
    expect(showsAlternativePayment(true, true)).toBe(false);
    expect(showsAlternativePayment(false, false)).toBe(false);
  });
});
