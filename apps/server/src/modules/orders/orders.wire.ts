import {
  centsToAmount,
  levelFieldForCategory,
  ORDER_STATUS,
  ORDER_STATUS_NAME,
  priceToWire,
  statusChangedBy,
  type OrderDetail,
  type OrderListItem,
  type OrderListQuery,
  type OrderStatusId,
  type Price,
} from '@app/domain';
import { isoInstant } from '../../lib/iso-instant';
import type { OrderDetailRow, OrderListFilter, OrderListRow } from './orders.rows';

/** The orders module's wire mappers: repository rows to CONTRACT's bodies, a list query to the repository's filter. */

const onOff = (on: boolean): 1 | 2 => (on ? 2 : 1);
const named = (ref: { id: number; name: string | null } | null) => (ref ? { id: ref.id, name: ref.name ?? '' } : null);

const priceOf = (row: OrderDetailRow): Price => ({
  basicPrice: row.priceBreakdown.basicPrice ?? 0,
  finalPrice: row.priceBreakdown.finalPrice ?? row.finalPriceCents,
  pricePremiumWriter: row.priceBreakdown.pricePremiumWriter ?? 0,
  pricePreferedWriter: row.priceBreakdown.pricePreferedWriter ?? 0,
  priceExtraQualityCheck: row.priceBreakdown.priceExtraQualityCheck ?? 0,
  priceQuality: row.priceBreakdown.priceQuality ?? 0,
  priceOnePageSummary: row.priceBreakdown.priceOnePageSummary ?? 0,
  priceDiscount: row.priceBreakdown.priceDiscount ?? row.discountCents,
});

const DAY_MS = 24 * 60 * 60 * 1000;

/** `YYYY-MM-DD` (already checked by the query schema) as the instant its UTC day starts. */
const utcDayStart = (day: string): Date => new Date(`${day}T00:00:00Z`);

/** CONTRACT "Order list query" turned into the repository's filter. */
export const listFilter = (query: OrderListQuery): OrderListFilter => {
  const q = query.q?.trim().toLowerCase() ?? '';
  const idText = /^#?(\d{1,10})$/.exec(q)?.[1];
  const searchId = idText === undefined ? null : Number(idText);
  return {
    hidden: query.hidden === '1',
    statusId: query.status ?? null,
    orderId: query.idOrder ?? null,
    createdFrom: query.dateFrom ? utcDayStart(query.dateFrom) : null,
    // Both days included: up to the start of the day after dateTo.
    createdBefore: query.dateTo ? new Date(utcDayStart(query.dateTo).getTime() + DAY_MS) : null,
    search: q === '' ? null : { text: q, id: searchId !== null && searchId <= 2_147_483_647 ? searchId : null },
  };
};

/** An order's status on a card: its id and name (SPEC §4). */
export const orderStatusRef = (statusId: number): OrderListItem['orderStatus'] => ({
  id: statusId,
  name: ORDER_STATUS_NAME[statusId as OrderStatusId] ?? 'Unknown',
});

/** ADR 0084: the card of a delivered order offers "Review delivery" (only while the order is in progress). */
export const cardReviewBy = (row: Pick<OrderListRow, 'reviewBy' | 'statusId'>): string | null =>
  row.reviewBy && row.statusId === ORDER_STATUS.inProgress ? isoInstant(row.reviewBy) : null;

/**
 * An order as the customer's list shows it on the wire, built in one object in `orderListItemSchema`'s key
 * order: the list's page is written as built (`builtAnswerSerializer`, ADR 0081), so this order is the
 * JSON's (`orders.list-wire.test.ts` holds it to the schema). Staff's queue builds its own row from the same
 * card fields (`orderStatusRef`, `cardReviewBy`) in one object, not this one copied.
 */
export const toOrderListItem = (row: OrderListRow): OrderListItem => ({
  id: row.id,
  uid: row.uid,
  title: row.title,
  workType: { id: row.workType.id, name: row.workType.name ?? '' },
  siteCategory: row.siteCategory,
  status: row.statusId,
  orderStatus: orderStatusRef(row.statusId),
  deadline: isoInstant(row.deadline),
  dateCreated: isoInstant(row.createdAt),
  finalPrice: centsToAmount(row.finalPriceCents),
  hidden: row.hidden ? 'YES' : 'no',
  pending: row.pending,
  pages: row.pages,
  // The customer's unread staff messages (the chat's read pointers, ADR 0047).
  unread: row.unread,
  reviewBy: cardReviewBy(row),
  // Issue 27: the card's Request revision and Leave feedback (the domain's orderCardActions decides).
  reviewed: row.reviewed,
  activeRevision: row.revisionActive,
  completedAt: row.completedAt ? isoInstant(row.completedAt) : null,
});

/** What the order page shows besides the order's own row (each read by its owner module). */
export interface OrderDetailExtras {
  history: { status: number; date: Date; actorRole: number | null; reason: string | null }[];
  fileForDownload: OrderDetail['fileForDownload'];
  feedback: OrderDetail['feedback'];
  orderMoney: { amountDueCents: number; unapplied: boolean } | null;
  activeRevision: OrderDetail['activeRevision'];
  afterPayment: Pick<OrderDetail, 'delivery' | 'extensionRequest' | 'events'>;
}

/** SPEC §3 "Order": one order as the order page reads it. */
export const toOrderDetail = (
  row: OrderDetailRow,
  { history, fileForDownload, feedback, orderMoney, activeRevision, afterPayment }: OrderDetailExtras,
): OrderDetail => {
  const levelField = levelFieldForCategory(row.siteCategory);
  const level = { id: row.level.id, name: row.level.name ?? '' };
  const price = priceOf(row);
  return {
    id: row.id,
    uid: row.uid,
    title: row.title,
    siteCategory: row.siteCategory,
    workType: { id: row.workType.id, name: row.workType.name ?? '' },
    status: row.statusId,
    orderStatus: { id: row.statusId, name: ORDER_STATUS_NAME[row.statusId as OrderStatusId] ?? 'Unknown' },
    finalPrice: centsToAmount(row.finalPriceCents),
    price: priceToWire(price),
    discount: row.discountCode ? { code: row.discountCode, amount: centsToAmount(row.discountCents) } : null,
    deadline: row.deadline.toISOString(),
    dateCreated: row.createdAt.toISOString(),
    hidden: row.hidden ? 'YES' : 'no',
    activeRevision,
    pending: row.pending,
    fileForDownload,
    feedback,
    features: {
      premiumWriter: onOff(row.premiumWriter),
      extraQualityCheck: onOff(row.extraQualityCheck),
      onePageSummary: onOff(row.onePageSummary),
      originalityReport: onOff(row.originalityReport),
    },
    preferredWritersList: row.preferredWriterIds,
    preferredWriterAnother: row.preferredWriterAnother,
    idWriter: row.writerId,
    description: row.description,
    credentials: row.credentials,
    pages: row.pages,
    sources: row.sources,
    urgency: row.urgencyHours,
    paragraphSpacing: row.spacing === 1 ? 1 : 2,
    subject: named(row.subject),
    assignment: named(row.paperType),
    resumeService: named(row.resumeService),
    paperFormat: named(row.paperFormat),
    academicLevel: levelField === 'academicLevel' ? level : null,
    resumeLevel: levelField === 'resumeLevel' ? level : null,
    thesisLevel: levelField === 'thesisLevel' ? level : null,
    // ADR 0071: who made each change (the role, never a staff account's id) and, when given, why.
    statusHistory: history.map((h) => ({
      status: h.status,
      date: h.date.toISOString(),
      by: statusChangedBy(h.actorRole),
      ...(h.reason === null ? {} : { reason: h.reason }),
    })),
    delivery: afterPayment.delivery,
    extensionRequest: afterPayment.extensionRequest,
    events: afterPayment.events,
    ...(orderMoney && orderMoney.amountDueCents > 0 ? { amountDue: centsToAmount(orderMoney.amountDueCents) } : {}),
    ...(orderMoney?.unapplied ? { unappliedPayment: true as const } : {}),
  };
};
