import { z } from 'zod';
import { DASHBOARD_PAGE_SIZE } from '../order/rules/index';

/** The largest page the order list serves (a client asking for more gets 422, not a slow answer). */
export const ORDER_LIST_MAX_LIMIT = 100;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar day `YYYY-MM-DD` that exists (2025-02-30 does not). */
const calendarDay = z
  .string()
  .regex(DATE_PATTERN, 'Use the YYYY-MM-DD form')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, 'Not a calendar day');
const positiveInt = (max: number) => z.coerce.number().int().min(1).max(max);

/**
 * CONTRACT "Orders and catalogues" order list query. `q` is case-insensitive search over the title and
 * the order id; `status` one status id; `dateFrom`/`dateTo` the creation day in UTC, both included;
 * `hidden=1` lists hidden orders only, anything else leaves hidden ones out. SPEC §9: 12 a page.
 */
export const orderListQuerySchema = z.object({
  limit: positiveInt(ORDER_LIST_MAX_LIMIT).default(DASHBOARD_PAGE_SIZE),
  page: positiveInt(1_000_000).default(1),
  q: z.string().max(250).optional(),
  idOrder: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  status: z.coerce.number().int().min(1).max(99).optional(),
  dateFrom: calendarDay.optional(),
  dateTo: calendarDay.optional(),
  hidden: z.string().max(8).optional(),
});
export type OrderListQuery = z.infer<typeof orderListQuerySchema>;

const named = z.object({ id: z.number().int(), name: z.string() });

/** One card of the dashboard (SPEC §2 "Order list", §3 "Order"). */
export const orderListItemSchema = z.object({
  id: z.number().int(),
  uid: z.string(),
  title: z.string(),
  workType: named,
  siteCategory: z.number().int(),
  /** the status id (SPEC §4) */
  status: z.number().int(),
  orderStatus: named,
  deadline: z.string(),
  dateCreated: z.string(),
  finalPrice: z.number(),
  /** SPEC §3 "hidden flag (YES/no)" */
  hidden: z.enum(['YES', 'no']),
  pending: z.boolean(),
  pages: z.number().int(),
  /** the customer's unread chat messages of the order (ADR 0047) */
  unread: z.number().int(),
  /** ADR 0084: a delivery awaits the customer's review until this time; null otherwise */
  reviewBy: z.string().nullable(),
  /** issue 27: the customer left feedback (the card's Leave feedback is gone then) */
  reviewed: z.boolean(),
  /** issue 27: a revision is requested or in work (the card's Request revision is gone then) */
  activeRevision: z.boolean(),
  /** issue 27: when the order was completed, null before; the free revision window runs from it */
  completedAt: z.string().nullable(),
});
export type OrderListItem = z.infer<typeof orderListItemSchema>;

/** CONTRACT: `{ orders: [...], total }`, total counting every match of the filters, not the page. */
export const orderListSchema = z.object({ orders: z.array(orderListItemSchema), total: z.number().int() });
export type OrderList = z.infer<typeof orderListSchema>;
