import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  PaymentAttentionList,
  PaymentAttentionOutcome,
  PaymentAttentionResolved,
  RefundClaimList,
  UnappliedPaymentList,
} from '@app/domain/staff';
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
    mutationFn: (claimId: number): Promise<unknown> =>
      apiFetch(`/api/staff/payments/refund-claims/${claimId}/refunded`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.refundClaims() }),
  });
};

/** ADR 0058: GET /api/staff/payments/attention, stale attempts the reconciliation job flagged (support). */
export const usePaymentAttention = () =>
  useQuery({
    queryKey: staffKeys.attention(),
    queryFn: (): Promise<PaymentAttentionList> =>
      apiFetch('/api/staff/payments/attention', { schema: () => loadStaff().then((m) => m.paymentAttentionListSchema) }),
  });

/**
 * ADR 0058: POST /api/staff/payments/attention/{paymentId}/resolved { outcome }. A 404 means another
 * support resolved it first; either way the list is asked again. A declined attempt can park late money
 * in the unapplied list, so that list is asked again too.
 */
export const useResolveAttention = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ paymentId, outcome }: { paymentId: string; outcome: PaymentAttentionOutcome }): Promise<PaymentAttentionResolved> =>
      apiFetch(`/api/staff/payments/attention/${encodeURIComponent(paymentId)}/resolved`, {
        method: 'POST',
        json: { outcome },
        schema: () => loadStaff().then((m) => m.paymentAttentionResolvedSchema),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: staffKeys.money() }),
  });
};

/** ADR 0089: after an action the money queues and the order views are asked again. */
const useMoneyAction = <V>(action: (value: V) => Promise<unknown>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: action,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: staffKeys.money() });
      void queryClient.invalidateQueries({ queryKey: staffKeys.queues() });
      void queryClient.invalidateQueries({ queryKey: [...staffKeys.all, 'order'] });
    },
  });
};

/** ADR 0089: POST /api/staff/payments/unapplied/{paymentId}/apply (409 when it is not what the order asks now). */
export const useApplyUnapplied = () =>
  useMoneyAction((paymentId: string) =>
    apiFetch(`/api/staff/payments/unapplied/${encodeURIComponent(paymentId)}/apply`, { method: 'POST' }),
  );

/** ADR 0089: POST /api/staff/payments/unapplied/{paymentId}/refund { reason }, through the one refund use case. */
export const useRefundUnapplied = () =>
  useMoneyAction(({ paymentId, reason }: { paymentId: string; reason: string }) =>
    apiFetch(`/api/staff/payments/unapplied/${encodeURIComponent(paymentId)}/refund`, { method: 'POST', json: { reason } }),
  );
