// The zod-free half of the dashboard context: rules the order list and the order page share (ADR 0020).
import { ORDER_STATUS, type OrderStatusId } from '../../order/rules/index';
import { isValidRating, REVIEW_RATING_MAX, REVIEW_RATING_STEP } from '../../review/rules/index';
import { revisionWindow } from '../../revision/rules/index';

/**
 * SPEC §4 "Order status ids (card styles)": each status has its own card style. The domain names the
 * style; the web app maps each name to colours (components/ui/status-badge).
 */
export const ORDER_STATUS_STYLE = {
  1: 'unpaid',
  2: 'paid',
  3: 'inProgress',
  5: 'completed',
  7: 'refunded',
  8: 'canceled',
  9: 'hold',
  10: 'modified',
  11: 'offered',
} as const satisfies Record<OrderStatusId, string>;
export type OrderStatusStyle = (typeof ORDER_STATUS_STYLE)[OrderStatusId];

/** The card style of a status id; an id SPEC does not list gets the neutral "hold" look. */
export const orderStatusStyle = (status: number): OrderStatusStyle =>
  Object.hasOwn(ORDER_STATUS_STYLE, status) ? ORDER_STATUS_STYLE[status as OrderStatusId] : 'hold';

/** What the order page offers in a given state (SPEC §2 order-info, ADR 0021). */
export interface OrderActions {
  /** unpaid: the payment flow (SPEC §4 "Payment flow") */
  pay: boolean;
  /** unpaid: to the wizard with editingOrderId (CONTRACT: only an unpaid order may be edited) */
  edit: boolean;
  /** any order: to the wizard with cloningOrder */
  clone: boolean;
  /** completed and not reviewed yet (SPEC §3 "Feedback") */
  leaveFeedback: boolean;
}

export const orderActions = (order: { status: number; feedback: unknown }): OrderActions => ({
  pay: order.status === ORDER_STATUS.unpaid,
  edit: order.status === ORDER_STATUS.unpaid,
  clone: true,
  leaveFeedback: order.status === ORDER_STATUS.completed && order.feedback === null,
});

/** Issue 27: the one action a dashboard card offers for its order's state, beside Hide. */
export type OrderCardAction = 'pay' | 'reviewDelivery' | 'requestRevision' | 'leaveFeedback';

/** What a card knows of its order to choose its actions (the list's fields, CONTRACT "Order list"). */
export interface OrderCardFacts {
  status: number;
  /** a delivery awaits the customer's review until then (ADR 0084) */
  reviewBy: string | null;
  /** the customer already left feedback (SPEC §3 "Feedback") */
  reviewed: boolean;
  /** a revision is requested or in work (SPEC §3 "activeRevision") */
  activeRevision: boolean;
  /** when the order was completed; the revision window runs from it (CONTRACT "Revisions") */
  completedAt: string | null;
  pages: number;
}

/**
 * Issue 27: the actions the card carries, most pressing first. Pay while unpaid (the same rule as the
 * order page), Review delivery while a delivery waits, and on a completed order Request revision while
 * the free revision window is open and no revision is active, Leave feedback until it is given.
 */
export const orderCardActions = (order: OrderCardFacts, now: Date): OrderCardAction[] => {
  const actions: OrderCardAction[] = [];
  if (orderActions({ status: order.status, feedback: null }).pay) actions.push('pay');
  if (order.status === ORDER_STATUS.inProgress && order.reviewBy !== null) actions.push('reviewDelivery');
  if (order.status === ORDER_STATUS.completed) {
    const completedAt = order.completedAt === null ? null : new Date(order.completedAt);
    if (!order.activeRevision && revisionWindow({ completedAt, pages: order.pages, now }).open) actions.push('requestRevision');
    if (!order.reviewed) actions.push('leaveFeedback');
  }
  return actions;
};

/**
 * Issue 27: the states where the customer has something to do that the status name does not say. One
 * line, the same on the card and on the order page.
 */
export const ORDER_STATUS_HINT: Partial<Record<OrderStatusId, string>> = {
  [ORDER_STATUS.offered]: 'Support prepared this offer for you: reply in Messages to accept it or ask for changes.',
  [ORDER_STATUS.hold]: 'Work is paused: open Messages to see what support needs from you to go on.',
};
export const orderStatusHint = (status: number): string | null =>
  Object.hasOwn(ORDER_STATUS_HINT, status) ? (ORDER_STATUS_HINT[status as OrderStatusId] ?? null) : null;

/** CONTRACT "Revisions": the revisions tab is enabled only in order status 5. */
export const isRevisionsTabEnabled = (status: number): boolean => status === ORDER_STATUS.completed;

/** SPEC §2 order-info tabs: the tooltips. */
export const ORDER_TAB_MESSAGE = {
  unreadMessages: 'You have unread messages',
  activeRevision: 'You have one active revision',
  /** issue 27: why the revisions tab is greyed out before the order is completed */
  revisionsClosed: 'Revisions open once the order is completed',
} as const;

/**
 * The dashboard's filters as the address bar carries them (SPEC §2: back, refresh and a shared link keep
 * them). Names are short and stable: `status`, `q`, `from`, `to`, `hidden=1`, `page`.
 */
export interface DashboardFilters {
  status: number | null;
  q: string;
  from: string;
  to: string;
  hidden: boolean;
  page: number;
}
export const DASHBOARD_PARAM = { status: 'status', q: 'q', from: 'from', to: 'to', hidden: 'hidden', page: 'page' } as const;

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const isCalendarDay = (value: string): boolean => {
  if (!DAY_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
};

/** Reads the filters from a query string; anything malformed is dropped, not trusted. */
export const parseDashboardFilters = (params: URLSearchParams): DashboardFilters => {
  const status = Number(params.get(DASHBOARD_PARAM.status));
  const page = Number(params.get(DASHBOARD_PARAM.page));
  const from = params.get(DASHBOARD_PARAM.from) ?? '';
  const to = params.get(DASHBOARD_PARAM.to) ?? '';
  return {
    status: Number.isInteger(status) && status > 0 ? status : null,
    q: (params.get(DASHBOARD_PARAM.q) ?? '').trim(),
    from: isCalendarDay(from) ? from : '',
    to: isCalendarDay(to) ? to : '',
    hidden: params.get(DASHBOARD_PARAM.hidden) === '1',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
};

/** The address-bar form of the filters; defaults are left out so a plain /dashboard stays plain. */
export const dashboardFiltersToParams = (filters: DashboardFilters): URLSearchParams => {
  const params = new URLSearchParams();
  if (filters.status !== null) params.set(DASHBOARD_PARAM.status, String(filters.status));
  if (filters.q !== '') params.set(DASHBOARD_PARAM.q, filters.q);
  if (filters.from !== '') params.set(DASHBOARD_PARAM.from, filters.from);
  if (filters.to !== '') params.set(DASHBOARD_PARAM.to, filters.to);
  if (filters.hidden) params.set(DASHBOARD_PARAM.hidden, '1');
  if (filters.page > 1) params.set(DASHBOARD_PARAM.page, String(filters.page));
  return params;
};

/**
 * Issue 27: how many filters narrow the list, for the phone's "Filters" button. The date range counts
 * once however many of its ends are set; the hidden-orders toggle counts.
 */
export const activeFilterCount = (filters: DashboardFilters): number =>
  [filters.status !== null, filters.q !== '', filters.from !== '' || filters.to !== '', filters.hidden].filter(Boolean).length;

/** SPEC §2: changing a filter or the search text resets the page to 1. */
export const withFilter = (filters: DashboardFilters, change: Partial<Omit<DashboardFilters, 'page'>>): DashboardFilters => ({
  ...filters,
  ...change,
  page: 1,
});

/**
 * The list request's query (CONTRACT "Order list query"). A From day after the To day is swapped rather
 * than sent as an empty range the customer did not mean.
 */
export const orderListRequestParams = (filters: DashboardFilters, limit: number): URLSearchParams => {
  const params = new URLSearchParams({ limit: String(limit), page: String(filters.page) });
  if (filters.q !== '') params.set('q', filters.q);
  if (filters.status !== null) params.set('status', String(filters.status));
  const [from, to] =
    filters.from !== '' && filters.to !== '' && filters.from > filters.to ? [filters.to, filters.from] : [filters.from, filters.to];
  if (from !== '') params.set('dateFrom', from);
  if (to !== '') params.set('dateTo', to);
  if (filters.hidden) params.set('hidden', '1');
  return params;
};

/** The page numbers to offer: all of them when few, else the ends and the neighbours with gaps (null). */
export const pageWindow = (page: number, pageCount: number): (number | null)[] => {
  if (pageCount <= 7) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const pages = new Set([1, pageCount, page - 1, page, page + 1].filter((p) => p >= 1 && p <= pageCount));
  const sorted = [...pages].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  for (const p of sorted) {
    const last = out.at(-1);
    if (typeof last === 'number' && p - last > 1) out.push(null);
    out.push(p);
  }
  return out;
};

/** SPEC §3 "Feedback": the ten half-star choices, 0.5 to 5. */
export const RATING_CHOICES: readonly number[] = Array.from(
  { length: REVIEW_RATING_MAX / REVIEW_RATING_STEP },
  (_, i) => (i + 1) * REVIEW_RATING_STEP,
);

/** A rating moved by `steps` half stars, kept on the scale. */
export const stepRating = (rating: number, steps: number): number => {
  const next = Math.min(REVIEW_RATING_MAX, Math.max(REVIEW_RATING_STEP, rating + steps * REVIEW_RATING_STEP));
  return isValidRating(next) ? next : rating;
};

/** How a rating is read out: "3.5 out of 5 stars". */
export const ratingLabel = (rating: number): string => `${rating} out of ${REVIEW_RATING_MAX} stars`;
