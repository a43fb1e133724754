import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { LoyaltyCode, LoyaltySummary } from '@app/domain/loyalty';
import type { ReferralDiscount, ReferralFilterId, ReferralInfo, ReferralList } from '@app/domain/referral';
import { apiFetch } from '@/lib/api-client';
import { loyaltyKeys } from './keys';

/** SPEC §7: GET /api/en/orders/discounts/loyalty_discounts (the balance, rules, codes). */
export const useLoyaltySummary = () =>
  useQuery({
    queryKey: loyaltyKeys.summary(),
    queryFn: ({ signal }): Promise<LoyaltySummary> =>
      apiFetch('/api/en/orders/discounts/loyalty_discounts', {
        schema: () => import('@app/domain/loyalty').then((m) => m.loyaltySummarySchema),
        signal,
      }),
  });

/** CONTRACT "Paths": POST /api/en/orders/discounts/loyalty_discounts/code (ADR 0050). */
export const useGenerateLoyaltyCode = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (): Promise<LoyaltyCode> =>
      apiFetch('/api/en/orders/discounts/loyalty_discounts/code', {
        method: 'POST',
        schema: () => import('@app/domain/loyalty').then((m) => m.loyaltyCodeSchema),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: loyaltyKeys.all }),
  });
};

/** CONTRACT "Paths": GET /api/en/customers/referral → { url, readyReferrals }. */
export const useReferralInfo = () =>
  useQuery({
    queryKey: loyaltyKeys.referralInfo(),
    queryFn: ({ signal }): Promise<ReferralInfo> =>
      apiFetch('/api/en/customers/referral', { schema: () => import('@app/domain/referral').then((m) => m.referralInfoSchema), signal }),
  });

/** SPEC §7: GET /api/en/customers/referrals/referral_customers?idStatus (0 all). */
export const useReferrals = (idStatus: ReferralFilterId) =>
  useQuery({
    queryKey: loyaltyKeys.referrals(idStatus),
    queryFn: ({ signal }): Promise<ReferralList> =>
      apiFetch(`/api/en/customers/referrals/referral_customers?idStatus=${idStatus}`, {
        schema: () => import('@app/domain/referral').then((m) => m.referralListSchema),
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** SPEC §7: POST /api/en/customers/referrals/{id}/discount (ADR 0051). */
export const useGenerateReferralDiscount = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number): Promise<ReferralDiscount> =>
      apiFetch(`/api/en/customers/referrals/${id}/discount`, {
        method: 'POST',
        schema: () => import('@app/domain/referral').then((m) => m.referralDiscountSchema),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: loyaltyKeys.all }),
  });
};
