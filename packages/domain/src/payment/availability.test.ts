import { describe, expect, it } from 'vitest';
import { allowedPaymentSystems } from './index';
import { offeredPaymentsRules } from './availability';

describe('offeredPaymentsRules (issue 8)', () => {
  const rules = { '1': { default: ['paycore', 'paypal', 'fondy', 'paymentwall'] }, '3': { default: ['paypal'], '2': ['paycore', 'fondy'] } };

  it('keeps only the usable providers in every list, in their order', () => {
    expect(offeredPaymentsRules(rules, ['fondy', 'paypal'])).toEqual({ '1': { default: ['paypal', 'fondy'] }, '3': { default: ['paypal'], '2': ['fondy'] } });
    expect(allowedPaymentSystems(offeredPaymentsRules(rules, ['fondy']), 1, 1)).toEqual(['fondy']);
  });

  it('changes nothing when every provider is usable, and leaves the stored rules untouched', () => {
    const all = offeredPaymentsRules(rules, ['paycore', 'paypal', 'fondy', 'paymentwall']);
    expect(all).toEqual(rules);
    offeredPaymentsRules(rules, []);
    expect(rules['1'].default).toHaveLength(4);
  });
});
