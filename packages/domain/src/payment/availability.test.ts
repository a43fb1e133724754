import { describe, expect, it } from 'vitest';
import { allowedPaymentSystems } from './index';
import { offeredPaymentsRules } from './availability';
import { RECONCILE_MAX_DELAY_MS, nextReconcileDelayMs } from './reconcile';

describe('offeredPaymentsRules (ADR 0036)', () => {
  const rules = {
    '1': { default: ['paycore', 'paypal', 'fondy', 'paymentwall'] },
    '3': { default: ['paypal'], '2': ['paycore', 'fondy'] },
  };

  it('keeps only the usable providers in every list, in their order', () => {
    expect(offeredPaymentsRules(rules, ['fondy', 'paypal'])).toEqual({
      '1': { default: ['paypal', 'fondy'] },
      '3': { default: ['paypal'], '2': ['fondy'] },
    });
    expect(allowedPaymentSystems(offeredPaymentsRules(rules, ['fondy']), 1, 1)).toEqual(['fondy']);
  });

  it('changes nothing when every provider is usable, and leaves the stored rules untouched', () => {
    const all = offeredPaymentsRules(rules, ['paycore', 'paypal', 'fondy', 'paymentwall']);
    expect(all).toEqual(rules);
    offeredPaymentsRules(rules, []);
    expect(rules['1'].default).toHaveLength(4);
  });
});

describe('nextReconcileDelayMs (ADR 0037)', () => {
  it('doubles the configured delay with every check, at most a day', () => {
    const minute = 60_000;
    expect([1, 2, 3, 4].map((n) => nextReconcileDelayMs(n, 30 * minute) / minute)).toEqual([30, 60, 120, 240]);
    expect(nextReconcileDelayMs(40, 30 * minute)).toBe(RECONCILE_MAX_DELAY_MS);
    expect(nextReconcileDelayMs(0, 5 * minute)).toBe(5 * minute);
  });
});
