import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors/index';
import {
  allowedTransitions,
  assertOrderMove,
  canMoveOrder,
  checkOrderMove,
  customerMayRemoveOwnFile,
  isReasonRequired,
  MOVE_BYS,
  ORDER_STATUS,
  ORDER_STATUS_NAME,
  ORDER_TRANSITIONS,
  refusedMoveMessage,
  statusRouteTargets,
  type MoveBy,
  type OrderMoveFacts,
} from './index';

/**
 * ADR 0071, written out again by hand from CONTRACT "Staff side" (not derived from the table): every
 * allowed (from, to, by) and the facts it needs. Every other triple must be refused.
 */
type Needs = (f: OrderMoveFacts) => boolean;
const always: Needs = () => true;
const EXPECTED: Record<string, Needs> = {
  '1>2 payment': always,
  '1>8 support': always,
  '2>3 assignment': (f) => f.hasWriter,
  '2>9 support': always,
  '2>10 support': always,
  '2>8 support': always,
  '2>7 refund': always,
  '3>5 support': (f) => f.delivered,
  '3>5 acceptance': (f) => f.delivered,
  '3>5 review_clock': (f) => f.delivered,
  '3>9 support': always,
  '3>10 support': always,
  '3>8 support': always,
  '3>7 refund': always,
  '5>7 refund': always,
  '9>2 support': (f) => !f.hasWriter,
  '9>3 support': (f) => f.hasWriter,
  '9>8 support': always,
  '9>7 refund': always,
  '10>2 payment': always,
  '10>3 support': (f) => f.hasWriter && f.amountDueCents === 0,
  '10>8 support': always,
  '10>7 refund': always,
  '11>8 support': always,
  // ADR 0087: the customer's own cancel, only while no writer works on the order.
  '1>8 cancellation': (f) => !f.hasWriter,
  '2>8 cancellation': (f) => !f.hasWriter,
  '9>8 cancellation': (f) => !f.hasWriter,
  '10>8 cancellation': (f) => !f.hasWriter,
  '11>8 cancellation': (f) => !f.hasWriter,
};

const STATUSES = Object.values(ORDER_STATUS) as number[];
// Ids outside SPEC §4 (4, 6) and nonsense are never a move's end.
const ALL = [0, ...STATUSES, 4, 6, 12, -1];
const FACTS: OrderMoveFacts[] = [false, true].flatMap((hasWriter) =>
  [false, true].flatMap((delivered) => [0, 500].map((amountDueCents) => ({ hasWriter, delivered, amountDueCents }))),
);

describe('the order transition table (ADR 0071), every (from, to, by) under every set of facts', () => {
  it('allows exactly the moves CONTRACT "Staff side" lists, under their conditions, and refuses every other', () => {
    let checked = 0;
    for (const from of ALL)
      for (const to of ALL)
        for (const by of MOVE_BYS)
          for (const facts of FACTS) {
            const expected = EXPECTED[`${from}>${to} ${by}`]?.(facts) ?? false;
            expect(canMoveOrder(from, to, by, facts), `${from} → ${to} by ${by} with ${JSON.stringify(facts)}`).toBe(expected);
            expect(checkOrderMove(from, to, by, facts).ok).toBe(expected);
            checked += 1;
          }
    expect(checked).toBe(ALL.length * ALL.length * MOVE_BYS.length * FACTS.length);
    // Every expected entry is in the table, and the table has nothing else.
    expect(ORDER_TRANSITIONS.map((m) => `${m.from}>${m.to} ${m.by}`).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('keeps the invariants: nothing returns to 1, 7 and 8 are final, 5 is left only for 7, no move stays in place', () => {
    for (const m of ORDER_TRANSITIONS) {
      expect(m.to).not.toBe(ORDER_STATUS.unpaid);
      expect([ORDER_STATUS.refunded, ORDER_STATUS.canceled]).not.toContain(m.from);
      if (m.from === ORDER_STATUS.completed) expect(m.to).toBe(ORDER_STATUS.refunded);
      expect(m.to).not.toBe(m.from);
    }
  });

  it('reaches 7 only through a refund, and 2 only through money (or a hold released on an order without a writer)', () => {
    for (const m of ORDER_TRANSITIONS) {
      if (m.to === ORDER_STATUS.refunded) expect(m.by).toBe('refund');
      if (m.by === 'refund') expect(m.to).toBe(ORDER_STATUS.refunded);
      if (m.to === ORDER_STATUS.paid && m.by !== 'payment') expect([m.from, m.when]).toEqual([ORDER_STATUS.hold, ['noWriter']]);
      if (m.by === 'payment') expect(m.to).toBe(ORDER_STATUS.paid);
      if (m.by === 'assignment') expect([m.from, m.to]).toEqual([ORDER_STATUS.paid, ORDER_STATUS.inProgress]);
    }
  });

  it('asks a reason for cancel (8), refund (7) and hold (9) only', () => {
    expect(STATUSES.filter(isReasonRequired).sort()).toEqual([7, 8, 9]);
  });
});

describe('what support is offered, and the refusal', () => {
  const none: OrderMoveFacts = { hasWriter: false, delivered: false, amountDueCents: 0 };
  const working: OrderMoveFacts = { hasWriter: true, delivered: false, amountDueCents: 0 };

  it.each<[number, OrderMoveFacts, number[]]>([
    [1, none, [8]],
    [2, none, [9, 10, 8, 7]],
    [3, working, [9, 10, 8, 7]],
    [3, { ...working, delivered: true }, [5, 9, 10, 8, 7]],
    [5, working, [7]],
    [7, working, []],
    [8, none, []],
    [9, none, [2, 8, 7]],
    [9, working, [3, 8, 7]],
    [10, { ...working, amountDueCents: 100 }, [8, 7]],
    [10, working, [3, 8, 7]],
    [11, none, [8]],
  ])('from %i with %j: %j', (from, facts, targets) => {
    expect(statusRouteTargets(from, facts)).toEqual(targets);
  });

  it('names the moves allowed now', () => {
    expect(refusedMoveMessage(1, 5, none)).toBe('Cannot move order from Unpaid to Completed. Allowed now: Canceled.');
    expect(refusedMoveMessage(3, 5, working)).toBe(
      'Cannot move order from In progress to Completed. Allowed now: Hold, Modified, Canceled, Refunded.',
    );
    expect(refusedMoveMessage(8, 3, none)).toBe('Cannot move order from Canceled to In progress. Allowed now: none.');
    expect(refusedMoveMessage(2, 4, none)).toBe(
      'Cannot move order from Paid to status 4. Allowed now: Hold, Modified, Canceled, Refunded.',
    );
  });

  it('assertOrderMove throws a 409 DomainError with that message, and passes an allowed move', () => {
    expect(() => assertOrderMove(1, 2, 'payment', none)).not.toThrow();
    try {
      assertOrderMove(1, 2, 'support' as MoveBy, none);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('CONFLICT');
      expect((error as DomainError).message).toBe('Cannot move order from Unpaid to Paid. Allowed now: Canceled.');
    }
  });

  it('lists the moves of every `by` when asked for all of them', () => {
    expect(allowedTransitions(2, working).map((m) => `${m.to} ${m.by}`)).toEqual([
      '3 assignment',
      '9 support',
      '10 support',
      '8 support',
      '7 refund',
    ]);
    expect(
      Object.keys(ORDER_STATUS_NAME)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(STATUSES.sort((a, b) => a - b));
  });
});

describe('customerMayRemoveOwnFile (ADR 0096)', () => {
  // Written out by hand: only an order that may still be edited lets its customer take a file back.
  const expected: Record<number, boolean> = { 1: true, 2: false, 3: false, 5: false, 7: false, 8: false, 9: false, 10: true, 11: false };
  it.each(Object.values(ORDER_STATUS))('status %i', (status) => {
    expect(customerMayRemoveOwnFile(status)).toBe(expected[status]);
  });
  it('refuses an unknown status', () => {
    expect(customerMayRemoveOwnFile(0)).toBe(false);
    expect(customerMayRemoveOwnFile(4)).toBe(false);
  });
});
