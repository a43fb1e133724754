import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RefundClaimList, UnappliedPaymentList } from '@app/domain/staff';
import { apiFetch } from '@/lib/api-client';
import { staffKeys } from './keys';

const loadStaff = () => import('@app/domain/staff');

/** ADR 0035: GET /api/staff/payments/unapplied, money that arrived and did not settle its order (support). */
export const useUnappliedPayments = () =>
  useQuery({
    queryKey: staffKeys.unapplied(),
    queryFn: (): Promise<UnappliedPaymentList> =>
      apiFetch('/api/staff/payments/unapplied', { schema: () => loadStaff().then((m) => m.unappliedPaymentListSchema) }),
  });

/** ADR 0035: GET /api/staff/payments/refund-claims, what forced edits owe back (support). */
export const useRefundClaims = () =>
  useQuery({
    queryKey: staffKeys.refundClaims(),
    queryFn: (): Promise<RefundClaimList> =>
      apiFetch('/api/staff/payments/refund-claims', { schema: () => loadStaff().then((m) => m.refundClaimListSchema) }),
  });

/** ADR 0035: POST /api/staff/payments/refund-claims/{id}/refunded once support refunded at the provider. */
export const useMarkRefunded = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (claimId: number): Promise<unknown> => apiFetch(`/api/staff/payments/refund-claims/${claimId}/refunded`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.refundClaims() }),
  });
};
