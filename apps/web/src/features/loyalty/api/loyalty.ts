import { useState } from 'react';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { LoyaltyCode, LoyaltySummary } from '@app/domain/loyalty';
import type { ReferralDiscount, ReferralFilterId, ReferralInfo, ReferralList } from '@app/domain/referral';
import { API_PATH, referralListPath } from '@app/domain/routes';
import { apiFetch } from '@/lib/api-client';
import { warmDateFormats } from '@/lib/dates';
import { loyaltyKeys } from './keys';

/** SPEC §7: GET /api/en/orders/discounts/loyalty_discounts (the balance, rules, codes). */
const loyaltySummaryQuery = () =>
  queryOptions({
    queryKey: loyaltyKeys.summary(),
    queryFn: ({ signal }): Promise<LoyaltySummary> =>
      apiFetch(API_PATH.loyaltyDiscounts, {
        schema: () => import('@app/domain/loyalty').then((m) => m.loyaltySummarySchema),
        // ADR 0101: /loyalty's first paint waits on this answer, not on zod: checked once the page is drawn.
        check: 'after',
        signal,
      }),
  });

export const useLoyaltySummary = () => useQuery(loyaltySummaryQuery());

/**
 * ADR 0100: what /loyalty shows first (the points; and the referral link, which the navigation shows too), in
 * the cache before the app's first render, from the answers the page asked for itself.
 */
export const prefetchLoyalty = async (queryClient: QueryClient): Promise<void> => {
  warmDateFormats();
  await Promise.all([
    queryClient.prefetchQuery(loyaltySummaryQuery()),
    queryClient.prefetchQuery(referralInfoQuery()),
    // ADR 0101: the referral tab (the first, unless `?tab=discount`) draws with its list.
    new URLSearchParams(window.location.search).get('tab') === 'discount' ? undefined : queryClient.prefetchQuery(referralsQuery(0)),
  ]);
};

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
const referralInfoQuery = () =>
  queryOptions({
    queryKey: loyaltyKeys.referralInfo(),
    queryFn: ({ signal }): Promise<ReferralInfo> =>
      apiFetch(API_PATH.referralInfo, {
        schema: () => import('@app/domain/referral').then((m) => m.referralInfoSchema),
        check: 'after',
        signal,
      }),
  });

export const useReferralInfo = () => useQuery(referralInfoQuery());

/** SPEC §7: GET /api/en/customers/referrals/referral_customers?idStatus (0 all). */
const referralsQuery = (idStatus: ReferralFilterId) =>
  queryOptions({
    queryKey: loyaltyKeys.referrals(idStatus),
    queryFn: ({ signal }): Promise<ReferralList> =>
      apiFetch(referralListPath(idStatus), {
        schema: () => import('@app/domain/referral').then((m) => m.referralListSchema),
        // ADR 0101: /loyalty's first paint waits on the list, not on zod: checked once the page is drawn.
        check: 'after',
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const useReferrals = (idStatus: ReferralFilterId) => useQuery(referralsQuery(idStatus));

/**
 * ADR 0098: whether /loyalty may be drawn: the points and, on the referral tab, the link and the list (all
 * statuses, the tab's first filter) have answered or failed. Drawn whole then, no section arrives above
 * another and pushes it down (the points panel moved the tabs by 590 px at 390 px: CLS 0.52). Once true it
 * stays true: a later tab or filter shows its own loading state in place.
 */
export const useLoyaltyPageReady = (referralTab: boolean): boolean => {
  const summary = useLoyaltySummary();
  const info = useQuery({ ...referralInfoQuery(), enabled: referralTab });
  const list = useQuery({ ...referralsQuery(0), enabled: referralTab });
  const ready = !summary.isPending && (!referralTab || (!info.isPending && !list.isPending));
  const [drawn, setDrawn] = useState(false);
  if (ready && !drawn) setDrawn(true);
  return ready || drawn;
};

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
