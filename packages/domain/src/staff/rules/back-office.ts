/**
 * ADR 0089: the back office's rules and wire shapes (issue 26: the writer's brief, support's views, the
 * writer list, the money queues' actions, canned replies).
 */

const HOUR_MS = 3_600_000;

/** ADR 0089: the writer's pay, a share of the order's price (settings: WRITER_FEE_PERCENT), in whole cents, rounded down. */
export const writerPayCents = (finalPriceCents: number, feePercent: number): number => {
  if (!Number.isSafeInteger(finalPriceCents) || finalPriceCents <= 0) return 0;
  const percent = Math.min(100, Math.max(0, feePercent));
  return Math.floor((finalPriceCents * percent) / 100);
};

/**
 * ADR 0089: the writer's deadline, `leadHours` before the customer's so there is time to check the work
 * (settings: WRITER_DEADLINE_LEAD_HOURS), but never earlier than half-way between the order's creation
 * and the customer's deadline (a 6-hour order keeps 3 hours of writing).
 */
export const writerDeadline = ({ deadline, createdAt, leadHours }: { deadline: Date; createdAt: Date; leadHours: number }): Date => {
  const lead = Math.max(0, leadHours) * HOUR_MS;
  const half = createdAt.getTime() + Math.max(0, deadline.getTime() - createdAt.getTime()) / 2;
  return new Date(Math.max(deadline.getTime() - lead, Math.min(half, deadline.getTime())));
};

/**
 * ADR 0089: support's views. Each is a tile with its count and a timer colour; the queue lists a view's
 * orders with `GET /api/staff/orders?view=…`.
 */
export const STAFF_VIEWS = [
  'paidUnassigned',
  'dueSoon',
  'overdue',
  'onHold',
  'awaitingSupport',
  'writerSilent',
  'revisionsDue',
  'extensionRequests',
  'disputes',
] as const;
export type StaffView = (typeof STAFF_VIEWS)[number];

/** The thresholds of the views that wait on a clock. */
export const STAFF_VIEW_RULES = {
  dueSoonHours: 24,
  awaitingSupportMinutes: 15,
  writerSilentHours: 8,
} as const;

/** How loud a view is when it is not empty: `danger` (red), `warning` (amber), `info` (blue). */
export const STAFF_VIEW_META: Record<StaffView, { label: string; tone: 'danger' | 'warning' | 'info'; hint: string }> = {
  paidUnassigned: { label: 'Paid and unassigned', tone: 'warning', hint: 'Paid orders waiting for a writer' },
  dueSoon: { label: 'Due within 24 h', tone: 'warning', hint: 'In work, customer deadline in the next 24 hours' },
  overdue: { label: 'Overdue', tone: 'danger', hint: 'In work, customer deadline passed' },
  onHold: { label: 'On hold', tone: 'info', hint: 'Work stopped until support releases the hold' },
  awaitingSupport: {
    label: 'Waiting for support',
    tone: 'danger',
    hint: 'The customer wrote to support over 15 minutes ago, no reply yet',
  },
  writerSilent: { label: 'Writer silent', tone: 'warning', hint: 'In progress, no word from the writer for over 8 hours' },
  revisionsDue: { label: 'Revisions due', tone: 'warning', hint: 'Open revision requests, soonest deadline first' },
  extensionRequests: { label: 'Extension requests', tone: 'info', hint: 'New deadlines proposed, waiting for the customer' },
  disputes: { label: 'Disputes', tone: 'danger', hint: 'Open disputes waiting for an outcome' },
};

/** The tone a tile shows: quiet when empty, its own tone otherwise. */
export const staffViewTone = (view: StaffView, count: number): 'neutral' | 'danger' | 'warning' | 'info' =>
  count > 0 ? STAFF_VIEW_META[view].tone : 'neutral';

/** The queue's orders: newest first (default), or soonest deadline first. */
export const STAFF_QUEUE_SORTS = ['newest', 'deadline'] as const;
export type StaffQueueSort = (typeof STAFF_QUEUE_SORTS)[number];

/** ADR 0089: the assignment's warnings, said before support confirms. */
export const assignWarnings = ({
  writer,
  preferredWriterIds,
}: {
  writer: { id: number; activeOrders: number; capacity: number; available: boolean; firstName: string; lastName: string };
  preferredWriterIds: readonly number[];
}): string[] => {
  const out: string[] = [];
  const name = `${writer.firstName} ${writer.lastName}`.trim();
  if (writer.activeOrders >= writer.capacity) {
    out.push(`${name} is at capacity: ${writer.activeOrders} active orders of ${writer.capacity}.`);
  }
  if (!writer.available) out.push(`${name} is marked unavailable.`);
  if (preferredWriterIds.length > 0 && !preferredWriterIds.includes(writer.id)) {
    out.push(`The customer asked for ${preferredWriterIds.length === 1 ? 'writer' : 'writers'} #${preferredWriterIds.join(', #')}.`);
  }
  return out;
};

/** Human names of the payment providers (SPEC §1). */
export const PROVIDER_NAME: Record<string, string> = {
  paycore: 'Paycore (card)',
  paypal: 'PayPal',
  fondy: 'Fondy (card)',
  paymentwall: 'Paymentwall',
  manual: 'Bank transfer',
};

/** Human names of why money did not settle its order (ADR 0034). */
export const UNAPPLIED_REASON_NAME: Record<string, string> = {
  attempt_canceled: 'The payment attempt had been canceled',
  attempt_declined: 'The payment attempt had been declined',
  amount_mismatch: 'The amount differs from the price',
  currency_mismatch: 'Paid in another currency',
  price_changed: 'The price changed after checkout',
  order_not_payable: 'The order could no longer be paid',
};

/**
 * ADR 0089: canned replies for the staff chat's common answers. `{first}` becomes the customer's first name.
 */
export const CANNED_REPLIES: readonly { id: string; label: string; text: string }[] = [
  { id: 'greeting', label: 'Greeting', text: 'Hello {first}, thank you for your message. I am looking into it now.' },
  {
    id: 'writer-assigned',
    label: 'Writer assigned',
    text: 'Hello {first}, a writer has been assigned to your order and has started working on it.',
  },
  {
    id: 'on-track',
    label: 'On track',
    text: 'Hello {first}, your order is on track and will be delivered by the deadline.',
  },
  {
    id: 'need-files',
    label: 'Need files',
    text: 'Hello {first}, could you upload the materials for your order (instructions, sources, notes) in the order page?',
  },
  {
    id: 'revision',
    label: 'Revision received',
    text: 'Hello {first}, we received your revision request. The writer will work on it and you will be notified when it is done.',
  },
  {
    id: 'refund',
    label: 'Refund sent',
    text: 'Hello {first}, your refund has been sent. Depending on your bank it may take 3 to 7 business days to appear.',
  },
];

/** A canned reply with the customer's first name in it. */
export const cannedReplyText = (text: string, firstName: string): string =>
  text.replace(/\{first\}/g, firstName.trim() === '' ? 'there' : firstName.trim());
