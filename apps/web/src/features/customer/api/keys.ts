/** Query keys of the customer feature. */
export const customerKeys = {
  all: ['customer'] as const,
  current: () => [...customerKeys.all, 'current'] as const,
  sessions: () => [...customerKeys.all, 'sessions'] as const,
  terms: () => [...customerKeys.all, 'terms'] as const,
  consentHistory: () => [...customerKeys.all, 'consent-history'] as const,
};
