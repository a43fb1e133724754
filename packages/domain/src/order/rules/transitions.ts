// ADR 0071: the one order transition table (CONTRACT "Staff side"), zod-free so the staff console's
// chunk reads the same table the server checks.
import { ROLE } from '../../auth/rules/accounts';
import { DomainError, ERROR_CODE } from '../../errors/domain-error';
import { ORDER_STATUS, ORDER_STATUS_NAME, type OrderStatusId } from './statuses-and-limits';

/** Who or what makes a move. */
export const MOVE_BY = {
  /** Support by hand, on `PUT /api/staff/orders/{id}/status`. */
  support: 'support',
  /** Money: a settled provider payment, or a payment support records by hand with its reference. */
  payment: 'payment',
  /** Support assigns a writer (`PUT /api/staff/orders/{id}/writer`). */
  assignment: 'assignment',
  /** The refund use case (a provider refund or chargeback, support's refund), which writes its transaction. */
  refund: 'refund',
  /** The customer accepts a delivery (`POST /api/en/orders/{id}/accept`, ADR 0084). */
  acceptance: 'acceptance',
  /** The review clock ran out with no answer: the job completes the order (ADR 0084). */
  reviewClock: 'review_clock',
  /** The customer cancels before any writer works on the order (`POST /api/en/orders/{id}/cancellation`, ADR 0087). */
  cancellation: 'cancellation',
} as const;
export type MoveBy = (typeof MOVE_BY)[keyof typeof MOVE_BY];
export const MOVE_BYS: readonly MoveBy[] = Object.values(MOVE_BY);

/** What a move's conditions read, at the moment of the move (the locked order row). */
export interface OrderMoveFacts {
  /** A writer is assigned to the order. */
  hasWriter: boolean;
  /** A delivery was submitted (`POST /api/staff/orders/{id}/delivery`, ADR 0084). */
  delivered: boolean;
  /** What a forced edit (10) left to pay, in cents. */
  amountDueCents: number;
}

/** A condition a move needs besides its `from` status. */
export type MoveCondition = 'writer' | 'noWriter' | 'delivered' | 'nothingDue';
const CONDITION_HOLDS: Record<MoveCondition, (f: OrderMoveFacts) => boolean> = {
  writer: (f) => f.hasWriter,
  noWriter: (f) => !f.hasWriter,
  delivered: (f) => f.delivered,
  nothingDue: (f) => f.amountDueCents <= 0,
};

export interface OrderTransition {
  from: OrderStatusId;
  to: OrderStatusId;
  by: MoveBy;
  when?: readonly MoveCondition[];
}

const S = ORDER_STATUS;
const t = (from: OrderStatusId, to: OrderStatusId, by: MoveBy, when?: readonly MoveCondition[]): OrderTransition =>
  when ? { from, to, by, when } : { from, to, by };

/**
 * Every move an order may make (CONTRACT "Staff side", ADR 0071). Anything not listed is refused:
 * nothing returns to 1, 7 and 8 are final, 5 is left only for 7, 2 is reached only through money and 7
 * only through a refund. 10 (modified: support opened a paid order for the customer's forced edit) and
 * 11 (offered: an offer support prepared, never paid) fit as ADR 0071 says.
 */
export const ORDER_TRANSITIONS: readonly OrderTransition[] = [
  t(S.unpaid, S.paid, MOVE_BY.payment),
  t(S.unpaid, S.canceled, MOVE_BY.support),
  // ADR 0087: the customer's own cancel, only while no writer works on the order (then it is a dispute).
  t(S.unpaid, S.canceled, MOVE_BY.cancellation, ['noWriter']),

  t(S.paid, S.inProgress, MOVE_BY.assignment, ['writer']),
  t(S.paid, S.hold, MOVE_BY.support),
  t(S.paid, S.modified, MOVE_BY.support),
  t(S.paid, S.canceled, MOVE_BY.support),
  t(S.paid, S.refunded, MOVE_BY.refund),
  t(S.paid, S.canceled, MOVE_BY.cancellation, ['noWriter']),

  // 3 → 5 only once a delivery was submitted: support completes it, the customer accepts it, or the review
  // clock runs out (ADR 0084).
  t(S.inProgress, S.completed, MOVE_BY.support, ['delivered']),
  t(S.inProgress, S.completed, MOVE_BY.acceptance, ['delivered']),
  t(S.inProgress, S.completed, MOVE_BY.reviewClock, ['delivered']),
  t(S.inProgress, S.hold, MOVE_BY.support),
  t(S.inProgress, S.modified, MOVE_BY.support),
  t(S.inProgress, S.canceled, MOVE_BY.support),
  t(S.inProgress, S.refunded, MOVE_BY.refund),

  t(S.completed, S.refunded, MOVE_BY.refund),

  // A hold is released to what the order is: in progress with a writer, paid without one.
  t(S.hold, S.paid, MOVE_BY.support, ['noWriter']),
  t(S.hold, S.inProgress, MOVE_BY.support, ['writer']),
  t(S.hold, S.canceled, MOVE_BY.support),
  t(S.hold, S.refunded, MOVE_BY.refund),
  t(S.hold, S.canceled, MOVE_BY.cancellation, ['noWriter']),

  // A forced edit: the difference it added is paid (money), or nothing is due and the writer goes on.
  t(S.modified, S.paid, MOVE_BY.payment),
  t(S.modified, S.inProgress, MOVE_BY.support, ['writer', 'nothingDue']),
  t(S.modified, S.canceled, MOVE_BY.support),
  t(S.modified, S.refunded, MOVE_BY.refund),
  t(S.modified, S.canceled, MOVE_BY.cancellation, ['noWriter']),

  t(S.offered, S.canceled, MOVE_BY.support),
  t(S.offered, S.canceled, MOVE_BY.cancellation, ['noWriter']),
];

/** CONTRACT "Staff side": these moves carry a reason into the status history. */
export const REASON_REQUIRED_STATUSES: readonly OrderStatusId[] = [S.refunded, S.canceled, S.hold];
export const isReasonRequired = (to: number): boolean => (REASON_REQUIRED_STATUSES as readonly number[]).includes(to);
/** The longest reason kept (raw characters, checked before any other work). */
export const STATUS_REASON_MAX_LENGTH = 1000;

/** The moves support may ask for on the status route: its own and a refund (which support's refund starts). */
export const STATUS_ROUTE_BYS: readonly MoveBy[] = [MOVE_BY.support, MOVE_BY.refund];

const holds = (transition: OrderTransition, facts: OrderMoveFacts): boolean =>
  (transition.when ?? []).every((condition) => CONDITION_HOLDS[condition](facts));

/** The moves allowed now from `from` (any `by` in `bys`), in the table's order. */
export const allowedTransitions = (from: number, facts: OrderMoveFacts, bys: readonly MoveBy[] = MOVE_BYS): readonly OrderTransition[] =>
  ORDER_TRANSITIONS.filter((m) => m.from === from && bys.includes(m.by) && holds(m, facts));

/** Whether `by` may move an order from `from` to `to` now. */
export const canMoveOrder = (from: number, to: number, by: MoveBy, facts: OrderMoveFacts): boolean =>
  allowedTransitions(from, facts, [by]).some((m) => m.to === to);

/** The statuses support may ask for now on the status route (the console offers exactly these). */
export const statusRouteTargets = (from: number, facts: OrderMoveFacts): OrderStatusId[] => [
  ...new Set(allowedTransitions(from, facts, STATUS_ROUTE_BYS).map((m) => m.to)),
];

const statusName = (status: number): string => ORDER_STATUS_NAME[status as OrderStatusId] ?? `status ${status}`;

/**
 * The 409 text of a refused move, naming the moves allowed now on the status route, e.g.
 * "Cannot move order from Unpaid to Completed. Allowed now: Canceled."
 */
export const refusedMoveMessage = (from: number, to: number, facts: OrderMoveFacts): string => {
  const allowed = statusRouteTargets(from, facts).map(statusName);
  return `Cannot move order from ${statusName(from)} to ${statusName(to)}. Allowed now: ${allowed.length > 0 ? allowed.join(', ') : 'none'}.`;
};

/** The check every writer of an order's status runs: allowed, or the message that refuses it. */
export const checkOrderMove = (
  from: number,
  to: number,
  by: MoveBy,
  facts: OrderMoveFacts,
): { ok: true } | { ok: false; message: string } =>
  canMoveOrder(from, to, by, facts) ? { ok: true } : { ok: false, message: refusedMoveMessage(from, to, facts) };

/** `checkOrderMove` that throws: a refused move is a 409 naming the moves allowed now. */
export const assertOrderMove = (from: number, to: number, by: MoveBy, facts: OrderMoveFacts): void => {
  const check = checkOrderMove(from, to, by, facts);
  if (!check.ok) throw new DomainError(ERROR_CODE.conflict, check.message);
};

/** Who made a history entry, as the order's statusHistory names it (the role; a null role is the system). */
export type StatusChangedBy = 'customer' | 'writer' | 'support' | 'system';
export const statusChangedBy = (role: number | null): StatusChangedBy => {
  if (role === ROLE.writer) return 'writer';
  // ADR 0090: an admin acts as support in the history (the audit log names the account).
  if (role === ROLE.support || role === ROLE.admin) return 'support';
  if (role === ROLE.customer || role === ROLE.customerAlt) return 'customer';
  return 'system';
};

/**
 * ADR 0071: the writer's files of a refunded order (7) are no longer the customer's to list or download
 * (the money went back); support still has them. Answered as 404, the way CONTRACT hides what is not the
 * caller's.
 */
export const customerSeesWriterFiles = (status: number): boolean => status !== ORDER_STATUS.refunded;

/**
 * ADR 0096: a customer may remove a file they attached themself while the order may still be edited at
 * all (CONTRACT "Orders": unpaid, or modified with forceEditing); once it is paid the writer may be
 * working from it. The server's `DELETE /api/en/orders/files/{id}` and the Files tab's Remove button
 * both follow this rule.
 */
export const customerMayRemoveOwnFile = (status: number): boolean => status === ORDER_STATUS.unpaid || status === ORDER_STATUS.modified;
