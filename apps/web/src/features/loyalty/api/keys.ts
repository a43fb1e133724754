/** Query keys of the loyalty feature (one factory per feature, DESIGN "Layout"). */
export const loyaltyKeys = {
  all: ['loyalty'] as const,
  summary: () => [...loyaltyKeys.all, 'summary'] as const,
  referralInfo: () => [...loyaltyKeys.all, 'referral-info'] as const,
  referrals: (idStatus: number) => [...loyaltyKeys.all, 'referrals', idStatus] as const,
};
