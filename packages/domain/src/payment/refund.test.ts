import { describe, expect, it } from 'vitest';
import { fullRefundParts, isFullyRefunded, refundableCents } from './index';

describe('refund money (ADR 0072)', () => {
  it('leaves what was paid less what was refunded, never below 0', () => {
    expect(refundableCents({ paidCents: 2400, refundedCents: 0 })).toBe(2400);
    expect(refundableCents({ paidCents: 2400, refundedCents: 400 })).toBe(2000);
    expect(refundableCents({ paidCents: 2400, refundedCents: 3000 })).toBe(0);
    expect(isFullyRefunded({ paidCents: 2400, refundedCents: 2400 })).toBe(true);
    expect(isFullyRefunded({ paidCents: 2400, refundedCents: 2399 })).toBe(false);
    expect(isFullyRefunded({ paidCents: 0, refundedCents: 0 })).toBe(false);
  });

  it('splits a full refund over the payments not refunded yet, oldest first, up to what is left', () => {
    const payments = [
      { paymentId: 'a', amountCents: 2400, refunded: false },
      { paymentId: 'b', amountCents: 600, refunded: false },
    ];
    expect(fullRefundParts(payments, 3000)).toEqual([
      { paymentId: 'a', amountCents: 2400 },
      { paymentId: 'b', amountCents: 600 },
    ]);
    // A refund claim gave 500 back before: the last payment gives back less.
    expect(fullRefundParts(payments, 2500)).toEqual([
      { paymentId: 'a', amountCents: 2400 },
      { paymentId: 'b', amountCents: 100 },
    ]);
    expect(fullRefundParts([{ ...payments[0]!, refunded: true }, payments[1]!], 600)).toEqual([{ paymentId: 'b', amountCents: 600 }]);
    expect(fullRefundParts(payments, 0)).toEqual([]);
  });

  it('gives back what is left of a payment refunded in part as one last part', () => {
    expect(
      fullRefundParts(
        [
          { paymentId: 'a', amountCents: 2400, refunded: true },
          { paymentId: 'b', amountCents: 600, refunded: false },
        ],
        1600,
      ),
    ).toEqual([
      { paymentId: 'b', amountCents: 600 },
      { paymentId: 'a', amountCents: 1000, remainder: true },
    ]);
    expect(fullRefundParts([{ paymentId: 'a', amountCents: 2400, refunded: true }], 0)).toEqual([]);
  });

  it('makes one part of the payments that name no attempt', () => {
    expect(
      fullRefundParts(
        [
          { paymentId: null, amountCents: 1000, refunded: false },
          { paymentId: null, amountCents: 500, refunded: false },
        ],
        1500,
      ),
    ).toEqual([{ paymentId: null, amountCents: 1500 }]);
  });
});
