import { describe, expect, it } from 'vitest';
import { ORDER_STATUS } from '../order/index';
import {
  acceptDeliveryBodySchema,
  acceptProblem,
  AFTER_PAYMENT_MESSAGE as M,
  changesProblem,
  changesRequestedBodySchema,
  deliveryProblem,
  extendedReviewBy,
  extensionAnswerBy,
  extensionAnswerProblem,
  extensionLengthText,
  extensionProposalBodySchema,
  proposedDeadlineProblem,
  reviewByFor,
  reviewClockRanOut,
  reviewDaysLeft,
  reviewExtensionProblem,
  staffDeliveryBodySchema,
  type DeliveryFacts,
  type DeliveryState,
  type ExtensionState,
} from './index';

const H = 3_600_000;
const D = 24 * H;
const T0 = new Date('2026-03-02T10:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const delivery = (state: DeliveryState, over: Partial<DeliveryFacts> = {}): DeliveryFacts => ({
  state,
  reviewBy: state === 'awaiting_review' ? at(3 * D) : null,
  reviewExtended: false,
  ...over,
});
const STATES: DeliveryState[] = ['awaiting_review', 'changes_requested', 'accepted', 'auto_completed'];
const STATUSES = Object.values(ORDER_STATUS) as number[];

describe('the review clock (ADR 0084)', () => {
  it('runs REVIEW_DAYS from the delivery, 3 by default', () => {
    expect(reviewByFor(T0).toISOString()).toBe('2026-03-05T10:00:00.000Z');
    expect(reviewByFor(T0, 5).toISOString()).toBe('2026-03-07T10:00:00.000Z');
    expect(extendedReviewBy(at(3 * D)).toISOString()).toBe('2026-03-08T10:00:00.000Z');
  });
  it.each([
    [0, 3],
    [1, 3],
    [D, 2],
    [2 * D + 1, 1],
    [3 * D - 1, 1],
    [3 * D, 0],
    [4 * D, 0],
  ])('%i ms after the delivery, %i days are left', (elapsed, left) => {
    expect(reviewDaysLeft(at(3 * D), at(elapsed))).toBe(left);
  });
  it('runs out only on a delivery awaiting review, at reviewBy and after', () => {
    for (const state of STATES) {
      const d = delivery(state, { reviewBy: at(3 * D) });
      expect(reviewClockRanOut(d, at(3 * D - 1))).toBe(false);
      expect(reviewClockRanOut(d, at(3 * D))).toBe(state === 'awaiting_review');
    }
    expect(reviewClockRanOut(delivery('awaiting_review', { reviewBy: null }), at(10 * D))).toBe(false);
  });
});

describe("the customer's answers to a delivery, in every state and status", () => {
  it('accepts once: an open delivery of an order in progress', () => {
    expect(acceptProblem(null, ORDER_STATUS.inProgress)).toBe(M.noDelivery);
    for (const state of STATES)
      for (const status of STATUSES) {
        const problem = acceptProblem(delivery(state), status);
        if (state === 'accepted' || state === 'auto_completed' || status === ORDER_STATUS.completed)
          expect(problem).toBe(M.alreadyAccepted);
        else if (status !== ORDER_STATUS.inProgress) expect(problem).toBe(M.notAwaitingReview);
        else expect(problem).toBeNull();
      }
  });
  it('asks for changes only while the clock runs', () => {
    expect(changesProblem(null, ORDER_STATUS.inProgress)).toBe(M.noDelivery);
    for (const state of STATES)
      for (const status of STATUSES) {
        const ok = state === 'awaiting_review' && status === ORDER_STATUS.inProgress;
        expect(changesProblem(delivery(state), status) === null).toBe(ok);
      }
    expect(changesProblem(delivery('accepted'), ORDER_STATUS.completed)).toBe(M.alreadyAccepted);
    expect(changesProblem(delivery('changes_requested'), ORDER_STATUS.inProgress)).toBe(M.notAwaitingReview);
  });
  it('pushes the clock once, before it ran out', () => {
    const running = delivery('awaiting_review');
    expect(reviewExtensionProblem(running, ORDER_STATUS.inProgress, at(D))).toBeNull();
    expect(reviewExtensionProblem({ ...running, reviewExtended: true }, ORDER_STATUS.inProgress, at(D))).toBe(M.reviewAlreadyExtended);
    expect(reviewExtensionProblem(running, ORDER_STATUS.inProgress, at(3 * D))).toBe(M.notAwaitingReview);
    expect(reviewExtensionProblem(delivery('changes_requested'), ORDER_STATUS.inProgress, at(D))).toBe(M.notAwaitingReview);
    expect(reviewExtensionProblem(delivery('accepted'), ORDER_STATUS.completed, at(D))).toBe(M.alreadyAccepted);
  });
});

describe('a delivery (staff)', () => {
  it('needs an order in progress, no delivery awaiting review, and new files', () => {
    for (const status of STATUSES) {
      const problem = deliveryProblem({ statusId: status, latest: null, newFiles: 1 });
      expect(problem).toBe(status === ORDER_STATUS.inProgress ? null : M.notDeliverable);
    }
    expect(deliveryProblem({ statusId: ORDER_STATUS.inProgress, latest: null, newFiles: 0 })).toBe(M.noNewFiles);
    expect(deliveryProblem({ statusId: ORDER_STATUS.inProgress, latest: delivery('awaiting_review'), newFiles: 2 })).toBe(M.awaitingReview);
    expect(deliveryProblem({ statusId: ORDER_STATUS.inProgress, latest: delivery('changes_requested'), newFiles: 1 })).toBeNull();
    expect(deliveryProblem({ statusId: ORDER_STATUS.inProgress, latest: delivery('changes_requested'), newFiles: 0 })).toBe(M.noNewFiles);
  });
});

describe('a proposed deadline (ADR 0084)', () => {
  it('is answered within 24 hours, or by the current deadline when that is sooner (never less than an hour)', () => {
    expect(extensionAnswerBy(T0, at(5 * D)).getTime()).toBe(at(24 * H).getTime());
    expect(extensionAnswerBy(T0, at(6 * H)).getTime()).toBe(at(6 * H).getTime());
    expect(extensionAnswerBy(T0, at(-2 * H)).getTime()).toBe(at(H).getTime());
  });
  it('must be later than the current deadline, by at most 30 days, and a real date', () => {
    const current = at(2 * D);
    expect(proposedDeadlineProblem({ current, proposed: new Date('nonsense') })).toBe(M.deadlineInvalid);
    expect(proposedDeadlineProblem({ current, proposed: current })).toBe(M.deadlineNotLater);
    expect(proposedDeadlineProblem({ current, proposed: at(D) })).toBe(M.deadlineNotLater);
    expect(proposedDeadlineProblem({ current, proposed: at(2 * D + 18 * H) })).toBeNull();
    expect(proposedDeadlineProblem({ current, proposed: at(32 * D) })).toBeNull();
    expect(proposedDeadlineProblem({ current, proposed: at(32 * D + 1) })).toBe(M.deadlineTooFar);
  });
  it.each<[ExtensionState, number, string | null]>([
    ['open', 0, null],
    ['open', 24 * H, null],
    ['open', 24 * H + 1, M.extensionExpired],
    ['expired', 0, M.extensionExpired],
    ['accepted', 0, M.extensionAnswered],
    ['declined', 0, M.extensionAnswered],
  ])('a %s request answered %i ms after: %s', (state, elapsed, problem) => {
    expect(extensionAnswerProblem({ state, answerBy: at(24 * H), now: at(elapsed) })).toBe(problem);
  });
  it.each([
    [18 * H, '18 more hours'],
    [H, '1 more hour'],
    [30 * 60_000, '1 more hour'],
    [47 * H, '47 more hours'],
    [3 * D, '3 more days'],
    [2 * D + 4 * H, '2 more days and 4 hours'],
    [2 * D + H, '2 more days and 1 hour'],
  ])('%i ms later reads "%s"', (ms, text) => {
    expect(extensionLengthText(T0, at(ms))).toBe(text);
  });
});

describe('the bodies, raw caps before any work', () => {
  it('takes a delivery with or without a message, refuses one over 4 × the rule', () => {
    expect(staffDeliveryBodySchema.parse({})).toEqual({ message: '' });
    expect(staffDeliveryBodySchema.safeParse({ message: 'x'.repeat(20_001) }).success).toBe(false);
  });
  it('accepts with nothing, or a rating and a comment', () => {
    expect(acceptDeliveryBodySchema.parse({})).toEqual({});
    expect(acceptDeliveryBodySchema.parse({ rating: 4.5, comment: 'Good' })).toEqual({ rating: 4.5, comment: 'Good' });
    expect(acceptDeliveryBodySchema.safeParse({ rating: '5' }).success).toBe(false);
  });
  it('needs a message for changes and a deadline with a reason for a proposal', () => {
    expect(changesRequestedBodySchema.safeParse({}).success).toBe(false);
    expect(extensionProposalBodySchema.safeParse({ deadline: '2026-03-05T10:00:00Z' }).success).toBe(false);
    expect(extensionProposalBodySchema.safeParse({ deadline: 'x'.repeat(41), reason: 'r' }).success).toBe(false);
  });
});
