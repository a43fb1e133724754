import { describe, expect, it } from 'vitest';
import { ORDER_STATUS as S } from '../order/rules/index';
import {
  cancelQuote,
  disputeAnswerBy,
  disputeOpenProblem,
  DISPUTE_MESSAGE,
  CANCEL_MESSAGE,
  policyShareCents,
  cancelQuoteText,
  type CancelFacts,
} from './rules/index';
import { cancelBodySchema, disputeResolutionBodySchema } from './wire';

const facts = (over: Partial<CancelFacts>): CancelFacts => ({
  statusId: S.paid,
  hasWriter: false,
  delivered: false,
  paidCents: 10_000,
  refundedCents: 0,
  ...over,
});

describe('cancelQuote (ADR 0087): what a cancel returns now, stage by stage', () => {
  it('unpaid: free, nothing to give back', () => {
    expect(cancelQuote(facts({ statusId: S.unpaid, paidCents: 0 }))).toEqual({
      stage: 'unpaid',
      allowed: true,
      refundCents: 0,
      action: 'cancel',
    });
  });
  it('paid with no writer yet: everything left, at once', () => {
    expect(cancelQuote(facts({}))).toEqual({ stage: 'before_work', allowed: true, refundCents: 10_000, action: 'cancel' });
    expect(cancelQuote(facts({ refundedCents: 2_500 })).refundCents).toBe(7_500);
    expect(cancelQuote(facts({ statusId: S.hold })).action).toBe('cancel');
  });
  it('in progress: the policy share of what is left, as a dispute', () => {
    const q = cancelQuote(facts({ statusId: S.inProgress, hasWriter: true, paidCents: 10_001 }), { inProgressRefundPercent: 50 });
    expect(q).toEqual({ stage: 'in_progress', allowed: true, refundCents: 5_000, action: 'dispute', reason: CANCEL_MESSAGE.inProgress });
    expect(cancelQuote(facts({ statusId: S.inProgress, hasWriter: true }), { inProgressRefundPercent: 0 }).refundCents).toBe(0);
    expect(cancelQuote(facts({ statusId: S.inProgress, hasWriter: true }), { inProgressRefundPercent: 100 }).refundCents).toBe(10_000);
    // A held order with a writer on it is work started too.
    expect(cancelQuote(facts({ statusId: S.hold, hasWriter: true })).stage).toBe('in_progress');
  });
  it('delivered or completed: no cancel, a dispute instead', () => {
    for (const f of [
      facts({ statusId: S.inProgress, hasWriter: true, delivered: true }),
      facts({ statusId: S.completed, hasWriter: true }),
    ])
      expect(cancelQuote(f)).toEqual({
        stage: 'delivered',
        allowed: false,
        refundCents: 0,
        action: 'dispute',
        reason: CANCEL_MESSAGE.delivered,
      });
  });
  it('canceled or refunded: final, with the reason', () => {
    expect(cancelQuote(facts({ statusId: S.canceled }))).toMatchObject({
      allowed: false,
      reason: CANCEL_MESSAGE.alreadyCanceled,
      action: 'none',
    });
    expect(cancelQuote(facts({ statusId: S.refunded, refundedCents: 10_000 }))).toMatchObject({
      allowed: false,
      refundCents: 0,
      reason: CANCEL_MESSAGE.alreadyRefunded,
    });
  });
  it('the share rounds down and clamps the percent', () => {
    expect(policyShareCents(999, 33)).toBe(329);
    expect(policyShareCents(1000, 150)).toBe(1000);
    expect(policyShareCents(1000, -5)).toBe(0);
    expect(policyShareCents(-10, 50)).toBe(0);
  });
  it('says the amount and where it stands', () => {
    expect(cancelQuoteText(cancelQuote(facts({})), 50)).toContain('$100.00');
    expect(cancelQuoteText(cancelQuote(facts({ statusId: S.inProgress, hasWriter: true })), 50)).toContain(
      '50% of what you paid (less any refund so far), $50.00',
    );
  });
});

describe('disputes (ADR 0087)', () => {
  it('only a paid order that is not closed may be disputed', () => {
    expect(disputeOpenProblem({ statusId: S.unpaid, paidCents: 0 })).toBe(DISPUTE_MESSAGE.notPaid);
    expect(disputeOpenProblem({ statusId: S.paid, paidCents: 0 })).toBe(DISPUTE_MESSAGE.notPaid);
    expect(disputeOpenProblem({ statusId: S.canceled, paidCents: 100 })).toBe(DISPUTE_MESSAGE.closed);
    expect(disputeOpenProblem({ statusId: S.refunded, paidCents: 100 })).toBe(DISPUTE_MESSAGE.closed);
    for (const statusId of [S.paid, S.inProgress, S.completed, S.hold, S.modified])
      expect(disputeOpenProblem({ statusId, paidCents: 100 })).toBeNull();
  });
  it('support answers within 48 hours', () => {
    expect(disputeAnswerBy(new Date('2026-01-01T10:00:00Z')).toISOString()).toBe('2026-01-03T10:00:00.000Z');
  });
  it('refuses an outcome outside the list and an oversized body before any work', () => {
    expect(disputeResolutionBodySchema.safeParse({ outcome: 'refund_everything', message: 'x' }).success).toBe(false);
    expect(disputeResolutionBodySchema.safeParse({ outcome: 'partial_refund', message: 'x', amount: 12.5 }).success).toBe(true);
    expect(disputeResolutionBodySchema.safeParse({ outcome: 'no_action', message: 'x'.repeat(8001) }).success).toBe(false);
    expect(cancelBodySchema.parse({})).toEqual({ reason: '' });
    expect(cancelBodySchema.safeParse({ reason: 'x'.repeat(4001) }).success).toBe(false);
  });
});
