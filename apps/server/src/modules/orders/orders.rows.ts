import type { Price } from '@app/domain';

/** The columns an order is created or edited with (SPEC §3 "Order"; money in integer cents). */
export interface OrderFields {
  siteCategory: number;
  workTypeId: number;
  levelId: number;
  paperFormatId: number | null;
  paperTypeId: number;
  resumeServiceId: number | null;
  subjectId: number;
  title: string;
  description: string;
  credentials: string;
  pages: number;
  sources: number;
  spacing: 1 | 2;
  urgencyHours: number;
  premiumWriter: boolean;
  extraQualityCheck: boolean;
  onePageSummary: boolean;
  originalityReport: boolean;
  preferredWriterIds: number[];
  preferredWriterAnother: boolean;
  deadline: Date;
  price: Price;
  discountCode: string | null;
}

export interface OrderDetailRow {
  id: number;
  uid: string;
  siteCategory: number;
  title: string;
  description: string;
  credentials: string;
  pages: number;
  sources: number;
  spacing: number;
  urgencyHours: number;
  premiumWriter: boolean;
  extraQualityCheck: boolean;
  onePageSummary: boolean;
  originalityReport: boolean;
  preferredWriterIds: number[];
  preferredWriterAnother: boolean;
  writerId: number | null;
  statusId: number;
  hidden: boolean;
  pending: boolean;
  deadline: Date;
  createdAt: Date;
  finalPriceCents: number;
  discountCode: string | null;
  discountCents: number;
  priceBreakdown: Partial<Price>;
  workType: { id: number; name: string | null };
  level: { id: number; name: string | null };
  paperType: { id: number; name: string | null } | null;
  paperFormat: { id: number; name: string | null } | null;
  resumeService: { id: number; name: string | null } | null;
  subject: { id: number; name: string | null } | null;
}

export const toDate = (v: unknown): Date => (v instanceof Date ? v : new Date(String(v)));

/**
 * The order's fields as column and value pairs, in one list so a column cannot drift from its value
 * (`$1…$26` of the insert and the edit follow this order). `cast` where PostgreSQL needs the type.
 */
export const ORDER_FIELD_COLUMNS: readonly { column: string; value: (f: OrderFields) => unknown; cast?: string }[] = [
  { column: 'site_category', value: (f) => f.siteCategory },
  { column: 'work_type_id', value: (f) => f.workTypeId },
  { column: 'level_id', value: (f) => f.levelId },
  { column: 'paper_format_id', value: (f) => f.paperFormatId },
  { column: 'paper_type_id', value: (f) => f.paperTypeId },
  { column: 'resume_service_id', value: (f) => f.resumeServiceId },
  { column: 'subject_id', value: (f) => f.subjectId },
  { column: 'title', value: (f) => f.title },
  { column: 'description', value: (f) => f.description },
  { column: 'credentials', value: (f) => f.credentials },
  { column: 'pages', value: (f) => f.pages },
  { column: 'sources', value: (f) => f.sources },
  { column: 'spacing', value: (f) => f.spacing },
  { column: 'urgency_hours', value: (f) => f.urgencyHours },
  { column: 'premium_writer', value: (f) => f.premiumWriter },
  { column: 'extra_quality_check', value: (f) => f.extraQualityCheck },
  { column: 'one_page_summary', value: (f) => f.onePageSummary },
  { column: 'originality_report', value: (f) => f.originalityReport },
  { column: 'preferred_writer_ids', value: (f) => f.preferredWriterIds, cast: '::int[]' },
  { column: 'preferred_writer_another', value: (f) => f.preferredWriterAnother },
  { column: 'deadline', value: (f) => f.deadline },
  { column: 'basic_price_cents', value: (f) => f.price.basicPrice },
  { column: 'final_price_cents', value: (f) => f.price.finalPrice },
  { column: 'discount_code', value: (f) => f.discountCode },
  { column: 'discount_cents', value: (f) => f.price.priceDiscount },
  { column: 'price_breakdown', value: (f) => JSON.stringify(f.price), cast: '::jsonb' },
];
/** The values of ORDER_FIELD_COLUMNS, in its order. */
export const orderFieldParams = (f: OrderFields): unknown[] => ORDER_FIELD_COLUMNS.map((c) => c.value(f));
/** `$n` (with its cast) of the field at `index` (0-based) when the fields are the first parameters. */
export const orderFieldPlaceholder = (index: number): string => `$${index + 1}${ORDER_FIELD_COLUMNS[index]?.cast ?? ''}`;

/** The list filters once parsed (CONTRACT "Order list query"); dates are UTC instants. */
export interface OrderListFilter {
  hidden: boolean;
  statusId: number | null;
  orderId: number | null;
  createdFrom: Date | null;
  createdBefore: Date | null;
  /** the search text, lower-cased; matched against the title, and against the id when it is a number */
  search: { text: string; id: number | null } | null;
}

export interface OrderListRow {
  id: number;
  uid: string;
  title: string;
  siteCategory: number;
  workType: { id: number; name: string | null };
  statusId: number;
  deadline: Date;
  createdAt: Date;
  finalPriceCents: number;
  hidden: boolean;
  pending: boolean;
  pages: number;
  /** the customer's unread staff messages of the order (ADR 0047) */
  unread: number;
  /** ADR 0084: when the review clock of a delivery awaiting review ends; null when none awaits */
  reviewBy: Date | null;
  /** issue 27: a completed order's feedback is given */
  reviewed: boolean;
  /** issue 27: a completed order has a revision requested or in work */
  revisionActive: boolean;
  completedAt: Date | null;
}

/** The fields of an order's card (ORDER_CARD_COLUMNS): what the customer's list and staff's queue both show. */
export type OrderCardRow = Pick<
  OrderListRow,
  | 'id'
  | 'uid'
  | 'title'
  | 'siteCategory'
  | 'workType'
  | 'statusId'
  | 'deadline'
  | 'createdAt'
  | 'finalPriceCents'
  | 'pending'
  | 'pages'
  | 'reviewBy'
>;

export const toOrderListRow = (r: Record<string, unknown>): OrderListRow => ({
  id: Number(r.id),
  uid: String(r.uid),
  title: String(r.title),
  siteCategory: Number(r.site_category),
  workType: { id: Number(r.work_type_id), name: (r.work_type_name as string | null) ?? null },
  statusId: Number(r.status_id),
  deadline: toDate(r.deadline),
  createdAt: toDate(r.created_at),
  finalPriceCents: Number(r.final_price_cents),
  hidden: r.hidden === true,
  pending: r.pending === true,
  pages: Number(r.pages),
  unread: Number(r.unread ?? 0),
  reviewBy: r.review_by === null || r.review_by === undefined ? null : new Date(r.review_by as string | Date),
  reviewed: r.reviewed === true,
  revisionActive: r.revision_active === true,
  completedAt: r.completed_at === null || r.completed_at === undefined ? null : toDate(r.completed_at),
});

/** A row of the detail query (`o.*` and the catalogue names) as the service reads it. */
export const toOrderDetailRow = (r: Record<string, unknown>): OrderDetailRow => {
  const ref = (id: unknown, name: unknown) =>
    id === null || id === undefined ? null : { id: Number(id), name: (name as string | null) ?? null };
  const breakdown =
    typeof r.price_breakdown === 'string' ? (JSON.parse(r.price_breakdown) as Partial<Price>) : (r.price_breakdown as Partial<Price>);
  return {
    id: Number(r.id),
    uid: String(r.uid),
    siteCategory: Number(r.site_category),
    title: String(r.title),
    description: String(r.description),
    credentials: String(r.credentials),
    pages: Number(r.pages),
    sources: Number(r.sources),
    spacing: Number(r.spacing),
    urgencyHours: Number(r.urgency_hours),
    premiumWriter: r.premium_writer === true,
    extraQualityCheck: r.extra_quality_check === true,
    onePageSummary: r.one_page_summary === true,
    originalityReport: r.originality_report === true,
    preferredWriterIds: ((r.preferred_writer_ids as number[] | null) ?? []).map(Number),
    preferredWriterAnother: r.preferred_writer_another === true,
    writerId: r.writer_id === null ? null : Number(r.writer_id),
    statusId: Number(r.status_id),
    hidden: r.hidden === true,
    pending: r.pending === true,
    deadline: toDate(r.deadline),
    createdAt: toDate(r.created_at),
    finalPriceCents: Number(r.final_price_cents),
    discountCode: (r.discount_code as string | null) ?? null,
    discountCents: Number(r.discount_cents),
    priceBreakdown: breakdown ?? {},
    workType: { id: Number(r.work_type_id), name: (r.work_type_name as string | null) ?? null },
    level: { id: Number(r.level_id), name: (r.level_name as string | null) ?? null },
    paperType: ref(r.paper_type_id, r.paper_type_name),
    paperFormat: ref(r.paper_format_id, r.paper_format_name),
    resumeService: ref(r.resume_service_id, r.resume_service_name),
    subject: ref(r.subject_id, r.subject_name),
  };
};
