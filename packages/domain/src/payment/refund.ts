// ADR 0072: the one refund use case's money rules, in integer cents (zod-free).

/** A payment recorded on the order (an applied payment transaction). */
export interface RecordedPayment {
  /** The attempt it settled; null for a payment row that names none (data from before attempts). */
  paymentId: string | null;
  amountCents: number;
  /** A refund row already names this payment (one refund per paid attempt, ADR 0036). */
  refunded: boolean;
}

/** What is left to give back: the applied payments less every refund so far (never below 0). */
export const refundableCents = ({ paidCents, refundedCents }: { paidCents: number; refundedCents: number }): number =>
  Math.max(0, paidCents - refundedCents);

/** A refund's money is the order's whole paid money once the refunds reach it. */
export const isFullyRefunded = ({ paidCents, refundedCents }: { paidCents: number; refundedCents: number }): boolean =>
  paidCents > 0 && refundedCents >= paidCents;

/** One refund row of a full refund; `remainder` is what is left of payments refunded in part before. */
export interface RefundPart {
  paymentId: string | null;
  amountCents: number;
  remainder?: true;
}

/**
 * A full refund, split over the payments not refunded yet, oldest first: each gives back what it paid
 * until what is left of the order is given back (a partial refund before, such as a refund claim, has
 * already given some back). Payments that name no attempt are one part together. What is still left
 * after them (a payment the provider refunded in part) is one last part, on the latest such payment.
 */
export const fullRefundParts = (payments: readonly RecordedPayment[], left: number): RefundPart[] => {
  const parts: RefundPart[] = [];
  let remaining = left;
  for (const p of payments) {
    if (remaining <= 0) break;
    if (p.refunded || p.amountCents <= 0) continue;
    const amountCents = Math.min(p.amountCents, remaining);
    const same = p.paymentId === null ? parts.find((x) => x.paymentId === null) : undefined;
    if (same) same.amountCents += amountCents;
    else parts.push({ paymentId: p.paymentId, amountCents });
    remaining -= amountCents;
  }
  const last = payments.findLast((p) => p.refunded);
  if (remaining > 0 && last) parts.push({ paymentId: last.paymentId, amountCents: remaining, remainder: true });
  return parts;
};
