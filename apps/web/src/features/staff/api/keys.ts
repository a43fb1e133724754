/** Query keys of the staff feature: the one owner of every staff resource in the cache (DESIGN "Layout"). */
export const staffKeys = {
  all: ['staff'] as const,
  me: () => [...staffKeys.all, 'me'] as const,
  queues: () => [...staffKeys.all, 'queue'] as const,
  queue: (status: number | null, page: number) => [...staffKeys.queues(), { status, page }] as const,
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
