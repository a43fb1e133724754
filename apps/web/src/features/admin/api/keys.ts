/** ADR 0090: the admin section's one query-key factory. */
export const adminKeys = {
  all: () => ['admin'] as const,
  prices: () => [...adminKeys.all(), 'prices'] as const,
  names: (category: number) => [...adminKeys.all(), 'names', category] as const,
  discounts: () => [...adminKeys.all(), 'discounts'] as const,
  staff: () => [...adminKeys.all(), 'staff'] as const,
  audit: (filter: { page: number; orderId: string; actorId: string }) => [...adminKeys.all(), 'audit', filter] as const,
  twoFactor: () => ['staff', 'two-factor'] as const,
};
