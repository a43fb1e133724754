import type { DocumentOrder } from '@app/domain';
import type { Queryable } from '../../db/client';
import { selectOrderForDocument } from './orders.repo';

/**
 * ADR 0085: the order as a receipt or credit note prints it, in the caller's transaction (the one that
 * writes the payment or refund). Null when the order is not the customer's.
 */
export const readOrderForDocument = async (
  q: Queryable,
  { orderId, customerId }: { orderId: number; customerId: number },
): Promise<DocumentOrder | null> => {
  const o = await selectOrderForDocument(q, { orderId, customerId });
  if (!o) return null;
  const part = (cents: number | undefined): number => (Number.isSafeInteger(cents) ? Number(cents) : 0);
  const extras = {
    premiumWriterCents: part(o.priceBreakdown.pricePremiumWriter),
    preferredWriterCents: part(o.priceBreakdown.pricePreferedWriter),
    extraQualityCheckCents: part(o.priceBreakdown.priceExtraQualityCheck),
    originalityReportCents: part(o.priceBreakdown.priceQuality),
    onePageSummaryCents: part(o.priceBreakdown.priceOnePageSummary),
  };
  // An order stored without its breakdown (demo data): the work is what the total leaves after the extras.
  const basicPriceCents =
    part(o.priceBreakdown.basicPrice) ||
    Math.max(0, o.finalPriceCents + o.discountCents - Object.values(extras).reduce((sum, cents) => sum + cents, 0));
  return {
    id: o.id,
    uid: o.uid,
    title: o.title,
    workType: o.workType.name,
    paperType: o.paperType?.name ?? null,
    level: o.level.name,
    pages: o.pages,
    spacing: o.spacing,
    urgencyHours: o.urgencyHours,
    deadline: o.deadline.toISOString(),
    basicPriceCents,
    extras,
    discountCode: o.discountCode,
    discountCents: o.discountCents,
    finalPriceCents: o.finalPriceCents,
  };
};
