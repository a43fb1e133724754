import { useQuery } from '@tanstack/react-query';
import type { PaymentStatusView } from '@app/domain/payment';
import { apiFetch } from '@/lib/api-client';
import { paymentKeys } from './keys';

/** CONTRACT "Payments": the return URL only triggers this status check (GET /api/en/orders/{id}/payment). */
export const getPaymentStatus = (orderId: number, signal?: AbortSignal): Promise<PaymentStatusView> =>
  apiFetch(`/api/en/orders/${orderId}/payment`, {
    schema: () => import('@app/domain/payment').then((m) => m.paymentStatusSchema),
    ...(signal ? { signal } : {}),
  });

/**
 * Asks every `intervalMs` while `enabled`, until the answer is final (paid or declined). The caller
 * turns `enabled` off when it stops waiting (the time limit).
 */
export const usePaymentStatusPolling = (orderId: number, { enabled, intervalMs }: { enabled: boolean; intervalMs: number }) =>
  useQuery({
    queryKey: paymentKeys.status(orderId),
    queryFn: ({ signal }) => getPaymentStatus(orderId, signal),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'paid' || status === 'declined' ? false : intervalMs;
    },
  });
