import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CancellationQuote, CancelResult, Dispute, DisputeList } from '@app/domain/dispute';
import { apiFetch } from '@/lib/api-client';
import { orderKeys, ordersChanged } from '@/lib/resources/orders';
import { postForm } from '@/lib/upload';

// ADR 0087, CONTRACT "After payment": the cancel quote, the cancel itself, the order's disputes. Keyed under
// the order's detail, so every change to the order (ordersChanged) reads them again.
const schemas = () => import('@app/domain/dispute');
const cancelKeys = {
  quote: (orderId: number) => [...orderKeys.detail(orderId), 'cancellation'] as const,
  disputes: (orderId: number) => [...orderKeys.detail(orderId), 'disputes'] as const,
};

export const useCancellationQuote = (orderId: number) =>
  useQuery({
    queryKey: cancelKeys.quote(orderId),
    queryFn: ({ signal }): Promise<CancellationQuote> =>
      // ADR 0101: asked as the order page is drawn; its schema (and zod) load once it is.
      apiFetch(`/api/en/orders/${orderId}/cancellation`, {
        schema: () => schemas().then((m) => m.cancellationQuoteSchema),
        check: 'after',
        signal,
      }),
    retry: false,
  });

export const useDisputes = (orderId: number) =>
  useQuery({
    queryKey: cancelKeys.disputes(orderId),
    queryFn: ({ signal }): Promise<DisputeList> =>
      apiFetch(`/api/en/orders/${orderId}/disputes`, { schema: () => schemas().then((m) => m.disputeListSchema), check: 'after', signal }),
    retry: false,
  });

/**
 * `POST …/cancellation { reason }`: canceled with its refund, or (work started) a dispute opened. `onDone`
 * runs before the order is read again (the panel that asked may then go: a canceled order has no cancel).
 */
export const useCancelOrder = (orderId: number, onDone: (result: CancelResult) => void) => {
  const queryClient = useQueryClient();
  return useMutation({
    onSuccess: onDone,
    mutationFn: (reason: string): Promise<CancelResult> =>
      apiFetch(`/api/en/orders/${orderId}/cancellation`, {
        method: 'POST',
        json: { reason },
        schema: () => schemas().then((m) => m.cancelResultSchema),
      }),
    onSettled: () => ordersChanged(queryClient),
  });
};

/** `POST …/disputes`: the reason and description first, then the files (the one upload path, with progress). */
export const openDispute = (
  orderId: number,
  { reason, description, files }: { reason: string; description: string; files: readonly File[] },
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<Dispute> =>
  postForm({
    url: `/api/en/orders/${orderId}/disputes`,
    fields: files.length > 0 ? { reason, description, files } : { reason, description },
    schema: () => schemas().then((m) => m.disputeSchema),
    onProgress,
    signal,
  });
