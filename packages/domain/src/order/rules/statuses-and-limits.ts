// The zod-free half of the order context, for the web app's eager chunks (ADR 0020).
/** CONTRACT "Orders and catalogues": editing is refused outside status 1 (or 10 with forceEditing). */
export const ORDER_EDIT_MESSAGE = {
  notEditable: 'This order can no longer be edited',
  idempotencyMismatch: 'This Idempotency-Key was already used with a different order',
  noRate: 'This combination of options has no price',
} as const;

/** SPEC §4 "Order status ids (card styles)". */
export const ORDER_STATUS = {
  unpaid: 1,
  paid: 2,
  inProgress: 3,
  completed: 5,
  refunded: 7,
  canceled: 8,
  hold: 9,
  modified: 10,
  offered: 11,
} as const;
export type OrderStatusId = (typeof ORDER_STATUS)[keyof typeof ORDER_STATUS];
export const ORDER_STATUS_NAME: Record<OrderStatusId, string> = {
  1: 'Unpaid',
  2: 'Paid',
  3: 'In progress',
  5: 'Completed',
  7: 'Refunded',
  8: 'Canceled',
  9: 'Hold',
  10: 'Modified',
  11: 'Offered',
};
/** SPEC §4: the dashboard filter offers All plus these. */
export const DASHBOARD_STATUS_FILTER: readonly OrderStatusId[] = [1, 2, 3, 5, 7, 8, 9, 11];

/** SPEC §1 work types. */
export const WORK_TYPE = { writing: 1, editing: 2, presentation: 3, review: 4 } as const;
export type WorkTypeId = (typeof WORK_TYPE)[keyof typeof WORK_TYPE];

/** SPEC §9. */
export const DASHBOARD_PAGE_SIZE = 12;
export const TRANSACTIONS_PAGE_SIZE = 16;
export const REVISIONS_PAGE_SIZE = 10;
export const WORDS_PER_PAGE = 300;
export const PRESENTATION_PAPER_TYPE = 17;
export const RESUME_DEFAULT_PAPER_TYPE = 71;
export const ORDER_MESSAGE = {
  fetchOrderFailed: 'Something went wrong while fetching order data',
  fetchListFailed: 'Something went wrong while fetching your order list. Please contact our support.',
} as const;

/**
 * CONTRACT "Orders and catalogues": only an unpaid order may be edited, or a modified one (10) when the
 * customer sends `forceEditing`.
 */
export const isOrderEditable = (statusId: number, forceEditing: boolean): boolean =>
  statusId === ORDER_STATUS.unpaid || (forceEditing && statusId === ORDER_STATUS.modified);
