import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ORDER_STATUS } from '../order/rules/index';
import {
  forcedEditBalance,
  nextPaymentState,
  orderCharge,
  PAYMENT_STATES,
  paymentReturnStatus,
  settlePaidEvent,
  UNAPPLIED_REASON,
  type OrderCharge,
  type PaymentKind,
  type PaymentState,
} from './index';

describe('orderCharge: what an order asks to be paid now', () => {
  it('an unpaid order asks for its whole price', () => {
    expect(orderCharge({ statusId: ORDER_STATUS.unpaid, finalPriceCents: 1020, amountDueCents: 0 })).toEqual({
      kind: 'full',
      amountCents: 1020,
    });
  });
  it('a modified order with an amount due asks for exactly the difference', () => {
    expect(orderCharge({ statusId: ORDER_STATUS.modified, finalPriceCents: 82875, amountDueCents: 81855 })).toEqual({
      kind: 'difference',
      amountCents: 81855,
    });
  });
  it.each(Object.values(ORDER_STATUS).filter((s) => s !== ORDER_STATUS.unpaid))(
    'status %i without an amount due asks for nothing',
    (statusId) => {
      expect(orderCharge({ statusId, finalPriceCents: 5000, amountDueCents: 0 })).toBeNull();
    },
  );
  it('an amount due outside status 10 asks for nothing (a paid order is not paid twice)', () => {
    for (const statusId of [2, 3, 5, 7, 8, 9, 11]) expect(orderCharge({ statusId, finalPriceCents: 5000, amountDueCents: 700 })).toBeNull();
  });
  it('a free unpaid order asks for nothing', () => {
    expect(orderCharge({ statusId: 1, finalPriceCents: 0, amountDueCents: 0 })).toBeNull();
  });
});

const OPEN: PaymentState[] = ['created', 'pending'];
const attempt = (over: Partial<{ state: PaymentState; kind: PaymentKind; amountCents: number; currency: string }> = {}) => ({
  state: 'pending' as PaymentState,
  kind: 'full' as PaymentKind,
  amountCents: 1020,
  currency: 'USD',
  ...over,
});
const fullCharge: OrderCharge = { kind: 'full', amountCents: 1020 };

describe('settlePaidEvent: a paid callback settles only the exact current charge', () => {
  it.each(OPEN)('applies an open (%s) attempt whose money is what the order asks now', (state) => {
    expect(settlePaidEvent({ attempt: attempt({ state }), received: { amountCents: 1020, currency: 'usd' }, charge: fullCharge })).toEqual({
      action: 'apply',
      kind: 'full',
    });
    // A provider that does not repeat the amount (Paymentwall) pays the attempt's amount.
    expect(settlePaidEvent({ attempt: attempt({ state }), received: { amountCents: null, currency: null }, charge: fullCharge })).toEqual({
      action: 'apply',
      kind: 'full',
    });
  });

  it('the ADR 0034 attack: a $10.20 attempt after an edit to $828.75 is parked, not applied', () => {
    expect(
      settlePaidEvent({
        attempt: attempt(),
        received: { amountCents: 1020, currency: 'USD' },
        charge: { kind: 'full', amountCents: 82875 },
      }),
    ).toEqual({ action: 'park', reason: UNAPPLIED_REASON.priceChanged, amountCents: 1020, currency: 'USD' });
    expect(
      settlePaidEvent({
        attempt: attempt({ state: 'canceled' }),
        received: { amountCents: 1020, currency: 'USD' },
        charge: { kind: 'full', amountCents: 82875 },
      }),
    ).toEqual({ action: 'park', reason: UNAPPLIED_REASON.attemptCanceled, amountCents: 1020, currency: 'USD' });
  });

  it('paid after declined parks the money (ADR 0034)', () => {
    expect(
      settlePaidEvent({ attempt: attempt({ state: 'declined' }), received: { amountCents: 1020, currency: 'USD' }, charge: fullCharge }),
    ).toMatchObject({
      action: 'park',
      reason: 'attempt_declined',
    });
  });

  it('parks another amount or currency with what really arrived', () => {
    expect(settlePaidEvent({ attempt: attempt(), received: { amountCents: 100, currency: 'USD' }, charge: fullCharge })).toEqual({
      action: 'park',
      reason: 'amount_mismatch',
      amountCents: 100,
      currency: 'USD',
    });
    expect(settlePaidEvent({ attempt: attempt(), received: { amountCents: 1020, currency: 'eur' }, charge: fullCharge })).toEqual({
      action: 'park',
      reason: 'currency_mismatch',
      amountCents: 1020,
      currency: 'EUR',
    });
  });

  it('parks money for an order that asks for nothing (already paid by another attempt)', () => {
    expect(settlePaidEvent({ attempt: attempt(), received: { amountCents: 1020, currency: 'USD' }, charge: null })).toMatchObject({
      action: 'park',
      reason: 'order_not_payable',
    });
  });

  it('a full payment never settles a difference, nor the other way round', () => {
    expect(
      settlePaidEvent({
        attempt: attempt({ kind: 'full', amountCents: 500 }),
        received: { amountCents: 500, currency: 'USD' },
        charge: { kind: 'difference', amountCents: 500 },
      }),
    ).toMatchObject({
      action: 'park',
      reason: 'price_changed',
    });
    expect(
      settlePaidEvent({
        attempt: attempt({ kind: 'difference', amountCents: 500 }),
        received: { amountCents: 500, currency: 'USD' },
        charge: { kind: 'difference', amountCents: 500 },
      }),
    ).toEqual({
      action: 'apply',
      kind: 'difference',
    });
  });

  it.each(['paid', 'parked', 'refunded'] as const)('a repeat on a %s attempt changes nothing', (state) => {
    expect(settlePaidEvent({ attempt: attempt({ state }), received: { amountCents: 1020, currency: 'USD' }, charge: fullCharge })).toEqual({
      action: 'ignore',
    });
  });

  it('exhaustively: applied only when open, same kind, and received = attempt = charge amount, same currency; never dropped otherwise', () => {
    const amounts = [0, 1, 1019, 1020, 1021, 82875];
    const charges: (OrderCharge | null)[] = [
      null,
      ...amounts.flatMap((a) => (['full', 'difference'] as const).map((kind) => ({ kind, amountCents: a }))),
    ];
    // Wrong answers are collected and compared once (one expect per case is slow on a busy machine).
    const wrong: unknown[] = [];
    let cases = 0;
    for (const state of PAYMENT_STATES)
      for (const kind of ['full', 'difference'] as const)
        for (const attemptAmount of amounts)
          for (const received of [null, ...amounts])
            for (const currency of [null, 'USD', 'usd', 'EUR'])
              for (const charge of charges) {
                cases += 1;
                const d = settlePaidEvent({
                  attempt: { state, kind, amountCents: attemptAmount, currency: 'USD' },
                  received: { amountCents: received, currency },
                  charge,
                });
                const exact =
                  (state === 'created' || state === 'pending') &&
                  (received ?? attemptAmount) === attemptAmount &&
                  (currency ?? 'USD').toUpperCase() === 'USD' &&
                  charge !== null &&
                  charge.kind === kind &&
                  charge.amountCents === attemptAmount;
                const settled = state === 'paid' || state === 'parked' || state === 'refunded';
                const action = settled ? 'ignore' : exact ? 'apply' : 'park';
                const parkedRight =
                  d.action !== 'park' ||
                  (d.amountCents === (received ?? attemptAmount) && d.currency === (currency ?? 'USD').toUpperCase());
                if (d.action !== action || !parkedRight) wrong.push({ state, kind, attemptAmount, received, currency, charge, d });
              }
    expect(cases).toBe(PAYMENT_STATES.length * 2 * amounts.length * (amounts.length + 1) * 4 * charges.length);
    expect(wrong).toEqual([]);
  });
});

describe('forcedEditBalance: a forced edit of a paid order', () => {
  it('raising the price asks for the difference', () => {
    expect(forcedEditBalance({ previousPriceCents: 1020, previousDueCents: 0, previousRefundDueCents: 0, newPriceCents: 82875 })).toEqual({
      amountDueCents: 81855,
      refundDueCents: 0,
    });
  });
  it('lowering it records the difference for a refund', () => {
    expect(forcedEditBalance({ previousPriceCents: 5000, previousDueCents: 0, previousRefundDueCents: 0, newPriceCents: 3000 })).toEqual({
      amountDueCents: 0,
      refundDueCents: 2000,
    });
  });
  it('an unchanged price owes nothing either way', () => {
    expect(forcedEditBalance({ previousPriceCents: 5000, previousDueCents: 0, previousRefundDueCents: 0, newPriceCents: 5000 })).toEqual({
      amountDueCents: 0,
      refundDueCents: 0,
    });
  });
  it('edits in a row are measured against what was paid, not against the previous edit', () => {
    // paid 50.00; edit to 80.00 (due 30.00), then to 60.00: due 10.00, then to 40.00: refund 10.00, then back to 50.00: nothing.
    let prev = { previousPriceCents: 5000, previousDueCents: 0, previousRefundDueCents: 0 };
    const steps: [number, number, number][] = [
      [8000, 3000, 0],
      [6000, 1000, 0],
      [4000, 0, 1000],
      [5000, 0, 0],
    ];
    for (const [price, due, refund] of steps) {
      const b = forcedEditBalance({ ...prev, newPriceCents: price });
      expect(b).toEqual({ amountDueCents: due, refundDueCents: refund });
      prev = { previousPriceCents: price, previousDueCents: b.amountDueCents, previousRefundDueCents: b.refundDueCents };
    }
  });
  it('refuses cents that are not non-negative integers', () => {
    expect(() => forcedEditBalance({ previousPriceCents: 10.5, previousDueCents: 0, previousRefundDueCents: 0, newPriceCents: 1 })).toThrow(
      RangeError,
    );
    expect(() => forcedEditBalance({ previousPriceCents: 10, previousDueCents: -1, previousRefundDueCents: 0, newPriceCents: 1 })).toThrow(
      RangeError,
    );
  });
  it('property: at most one side is non-zero, and due − refund is the new price less what is held', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), fc.nat(1_000_000), fc.nat(1_000_000), fc.nat(1_000_000), (paid, extraDue, refundDue, newPrice) => {
        const previousPriceCents = paid + extraDue;
        const b = forcedEditBalance({
          previousPriceCents,
          previousDueCents: extraDue,
          previousRefundDueCents: refundDue,
          newPriceCents: newPrice,
        });
        expect(b.amountDueCents === 0 || b.refundDueCents === 0).toBe(true);
        expect(b.amountDueCents - b.refundDueCents).toBe(newPrice - (paid + refundDue));
      }),
    );
  });
});

describe('attempt states (ADR 0034)', () => {
  it('a paid event never moves a declined, canceled or parked attempt by the forward rule (settle parks it instead)', () => {
    for (const s of ['declined', 'canceled', 'parked'] as const) expect(nextPaymentState(s, 'paid')).toBeNull();
  });
  it('parked money may be refunded', () => {
    expect(nextPaymentState('parked', 'refunded')).toBe('refunded');
  });
  it('canceled attempts are left out of the return status; a parked one is not paid', () => {
    expect(paymentReturnStatus(['canceled'])).toBe('none');
    expect(paymentReturnStatus(['canceled', 'pending'])).toBe('pending');
    expect(paymentReturnStatus(['parked'])).toBe('declined');
    expect(paymentReturnStatus(['parked', 'paid'])).toBe('paid');
  });
});
