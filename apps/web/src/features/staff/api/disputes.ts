import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Dispute, DisputeResolutionBody, StaffDisputeList } from '@app/domain/dispute';
import { apiFetch } from '@/lib/api-client';
import { staffKeys } from './keys';

const loadDispute = () => import('@app/domain/dispute');

/** ADR 0087: GET /api/staff/disputes?status=, open ones by answer-by (support). */
export const useStaffDisputes = (status: 'open' | 'resolved') =>
  useQuery({
    queryKey: staffKeys.disputes(status),
    queryFn: (): Promise<StaffDisputeList> =>
      apiFetch(`/api/staff/disputes?status=${status}&limit=50`, { schema: () => loadDispute().then((m) => m.staffDisputeListSchema) }),
  });

/**
 * ADR 0087: PUT /api/staff/disputes/{id} with one outcome and a message. Afterwards the disputes, the money
 * queues and the order's view are asked again (a refund, a deadline or a writer may have changed).
 */
export const useResolveDispute = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ disputeId, body }: { disputeId: number; body: DisputeResolutionBody }): Promise<Dispute> =>
      apiFetch(`/api/staff/disputes/${disputeId}`, { method: 'PUT', json: body, schema: () => loadDispute().then((m) => m.disputeSchema) }),
    onSettled: (dispute) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: [...staffKeys.all, 'disputes'] }),
        dispute ? queryClient.invalidateQueries({ queryKey: staffKeys.order(dispute.orderId) }) : undefined,
      ]).catch(() => undefined),
  });
};
