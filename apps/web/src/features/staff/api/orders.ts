import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import type { StaffOrder, StaffOrderList } from '@app/domain/staff';
import { apiErrorFor, apiFetch } from '@/lib/api-client';
import { uploadWithProgress } from '@/lib/upload';
import { staffKeys } from './keys';

export type { StaffOrder };

/** The queue's page size (the server's default, CONTRACT "Staff side"). */
export const STAFF_QUEUE_PAGE_SIZE = 20;

const loadStaff = () => import('@app/domain/staff');

/** CONTRACT "Staff side": GET /api/staff/orders?status&page&limit (support: all; writer: assigned). */
export const getStaffQueue = (status: number | null, page: number): Promise<StaffOrderList> => {
  const query = new URLSearchParams({ page: String(page), limit: String(STAFF_QUEUE_PAGE_SIZE) });
  if (status !== null) query.set('status', String(status));
  return apiFetch(`/api/staff/orders?${query.toString()}`, { schema: () => loadStaff().then((m) => m.staffOrderListSchema) });
};

export const staffQueueQueryOptions = (status: number | null, page: number) =>
  queryOptions({ queryKey: staffKeys.queue(status, page), queryFn: () => getStaffQueue(status, page), placeholderData: keepPreviousData });

export const useStaffQueue = (status: number | null, page: number) => useQuery(staffQueueQueryOptions(status, page));

/** ADR 0059: GET /api/staff/orders/{id}, the order view's row (404 for a writer it is not assigned to). */
export const useStaffOrder = (orderId: number) =>
  useQuery({
    queryKey: staffKeys.order(orderId),
    queryFn: (): Promise<StaffOrder> =>
      apiFetch(`/api/staff/orders/${orderId}`, { schema: () => loadStaff().then((m) => m.staffOrderSchema) }),
  });

/** The answer of a status change or an assignment is the order: the view shows it, the queue pages refetch. */
const useOrderWrite = <V>(orderId: number, write: (value: V) => Promise<StaffOrder>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: (order) => {
      queryClient.setQueryData(staffKeys.order(orderId), order);
      void queryClient.invalidateQueries({ queryKey: staffKeys.queues() });
    },
  });
};

/** CONTRACT "Staff side": PUT /api/staff/orders/{id}/status { status } (support). */
export const useSetOrderStatus = (orderId: number) =>
  useOrderWrite(orderId, (status: number) =>
    apiFetch(`/api/staff/orders/${orderId}/status`, {
      method: 'PUT',
      json: { status },
      schema: () => loadStaff().then((m) => m.staffOrderSchema),
    }),
  );

/** CONTRACT "Staff side": PUT /api/staff/orders/{id}/writer { idWriter } (support; 422 for a non-writer). */
export const useAssignWriter = (orderId: number) =>
  useOrderWrite(orderId, (idWriter: number) =>
    apiFetch(`/api/staff/orders/${orderId}/writer`, {
      method: 'PUT',
      json: { idWriter },
      schema: () => loadStaff().then((m) => m.staffOrderSchema),
    }),
  );

/**
 * CONTRACT "Staff side": POST /api/staff/orders/{id}/files (multipart `file`), a writer file of the
 * order. lib/upload reports the progress and cancels (DESIGN rule 9).
 */
export const deliverOrderFile = async (
  orderId: number,
  file: File,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
): Promise<OrderFile> => {
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = await uploadWithProgress({ url: `/api/staff/orders/${orderId}/files`, form, onProgress, signal });
  if (answer.status < 200 || answer.status >= 300) throw apiErrorFor(answer.status, answer.body);
  onProgress(100);
  return answer.body as OrderFile;
};
