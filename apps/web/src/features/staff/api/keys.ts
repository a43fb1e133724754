import type { StaffQueueSort, StaffView } from '@app/domain/staff/rules';

/** What the queue is asked for (ADR 0081, 0089): a status, a view, a search, an order, a page. */
export interface StaffQueueParams {
  status: number | null;
  view: StaffView | null;
  q: string;
  sort: StaffQueueSort;
  page: number;
}

/** Query keys of the staff feature: the one owner of every staff resource in the cache (DESIGN "Layout"). */
export const staffKeys = {
  all: ['staff'] as const,
  me: () => [...staffKeys.all, 'me'] as const,
  queues: () => [...staffKeys.all, 'queue'] as const,
  queue: (q: StaffQueueParams) => [...staffKeys.queues(), q] as const,
  /** ADR 0089: each view's count (refetched with the queues). */
  views: () => [...staffKeys.queues(), 'views'] as const,
  writers: (q: string) => [...staffKeys.all, 'writers', q] as const,
  revisions: (orderId: number) => [...staffKeys.all, 'revisions', orderId] as const,
  order: (orderId: number) => [...staffKeys.all, 'order', orderId] as const,
  /** One order's files (ADR 0071). */
  files: (orderId: number) => [...staffKeys.all, 'files', orderId] as const,
  money: () => [...staffKeys.all, 'money'] as const,
  unapplied: () => [...staffKeys.money(), 'unapplied'] as const,
  refundClaims: () => [...staffKeys.money(), 'refund-claims'] as const,
  attention: () => [...staffKeys.money(), 'attention'] as const,
  /** ADR 0087: support's disputes (open or resolved). */
  disputes: (status: 'open' | 'resolved') => [...staffKeys.all, 'disputes', status] as const,
};
