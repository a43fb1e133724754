import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import type {
  StaffOrder,
  StaffOrderFile,
  StaffOrderFileList,
  StaffOrderList,
  StaffOrderView,
  StaffViewCounts,
  StaffWriter,
  StaffWriterList,
} from '@app/domain/staff';
import { apiFetch } from '@/lib/api-client';
import { downloadFrom } from '@/lib/download';
import { postForm } from '@/lib/upload';
import { staffKeys, type StaffQueueParams } from './keys';

export type { StaffOrder, StaffOrderFile, StaffOrderView, StaffWriter };

/** The queue's page size (the server's default, CONTRACT "Staff side"). */
export const STAFF_QUEUE_PAGE_SIZE = 20;

const loadStaff = () => import('@app/domain/staff');

/** CONTRACT "Staff side": GET /api/staff/orders?status&page&limit, with ADR 0089's view, sort and search. */
export const getStaffQueue = (p: StaffQueueParams): Promise<StaffOrderList> => {
  const query = new URLSearchParams({ page: String(p.page), limit: String(STAFF_QUEUE_PAGE_SIZE) });
  if (p.status !== null) query.set('status', String(p.status));
  if (p.view !== null) query.set('view', p.view);
  if (p.q !== '') query.set('q', p.q);
  if (p.sort !== 'newest') query.set('sort', p.sort);
  return apiFetch(`/api/staff/orders?${query.toString()}`, { schema: () => loadStaff().then((m) => m.staffOrderListSchema) });
};

export const staffQueueQueryOptions = (p: StaffQueueParams) =>
  queryOptions({ queryKey: staffKeys.queue(p), queryFn: () => getStaffQueue(p), placeholderData: keepPreviousData });

export const useStaffQueue = (p: StaffQueueParams) => useQuery(staffQueueQueryOptions(p));

/** ADR 0089: GET /api/staff/views, each view's count (a writer: of their orders). */
export const useStaffViews = () =>
  useQuery({
    queryKey: staffKeys.views(),
    queryFn: (): Promise<StaffViewCounts> =>
      apiFetch('/api/staff/views', { schema: () => loadStaff().then((m) => m.staffViewCountsSchema) }),
    refetchInterval: 60_000,
  });

/** CONTRACT "Staff side": GET /api/staff/writers?q (support). */
export const useStaffWriters = (q: string) =>
  useQuery({
    queryKey: staffKeys.writers(q),
    queryFn: (): Promise<StaffWriterList> =>
      apiFetch(`/api/staff/writers${q === '' ? '' : `?q=${encodeURIComponent(q)}`}`, {
        schema: () => loadStaff().then((m) => m.staffWriterListSchema),
      }),
    placeholderData: keepPreviousData,
  });

/**
 * ADR 0059, 0071: GET /api/staff/orders/{id}, the order view (404 for a writer it is not assigned to), with
 * what the transition table reads and the status history.
 */
export const useStaffOrder = (orderId: number) =>
  useQuery({
    queryKey: staffKeys.order(orderId),
    queryFn: (): Promise<StaffOrderView> =>
      apiFetch(`/api/staff/orders/${orderId}`, { schema: () => loadStaff().then((m) => m.staffOrderViewSchema) }),
  });

/**
 * The answer of a status change, a payment or an assignment is the order: the view shows it, the queue
 * pages refetch. A refusal (409: the order moved meanwhile) reloads the view, so the moves offered are
 * the ones allowed now.
 */
const useOrderWrite = <V>(orderId: number, write: (value: V) => Promise<StaffOrderView>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: (order) => {
      queryClient.setQueryData(staffKeys.order(orderId), order);
      void queryClient.invalidateQueries({ queryKey: staffKeys.queues() });
      void queryClient.invalidateQueries({ queryKey: staffKeys.files(orderId) });
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: staffKeys.order(orderId) }),
  });
};

/** CONTRACT "Staff side", ADR 0071: PUT /api/staff/orders/{id}/status { status, reason? } (support). */
export const useSetOrderStatus = (orderId: number) =>
  useOrderWrite(orderId, ({ status, reason }: { status: number; reason?: string }) =>
    apiFetch(`/api/staff/orders/${orderId}/status`, {
      method: 'PUT',
      json: reason === undefined ? { status } : { status, reason },
      schema: () => loadStaff().then((m) => m.staffOrderViewSchema),
    }),
  );

/** ADR 0071: POST /api/staff/orders/{id}/payments { reference, amount? }, a payment recorded by hand (support). */
export const useRecordPayment = (orderId: number) =>
  useOrderWrite(orderId, (body: { reference: string; amount?: number }) =>
    apiFetch(`/api/staff/orders/${orderId}/payments`, {
      method: 'POST',
      json: body,
      schema: () => loadStaff().then((m) => m.staffOrderViewSchema),
    }),
  );

/** ADR 0071: GET /api/staff/orders/{id}/files, the customer's and the writer's files of the order. */
export const useStaffOrderFiles = (orderId: number) =>
  useQuery({
    queryKey: staffKeys.files(orderId),
    queryFn: (): Promise<StaffOrderFileList> =>
      apiFetch(`/api/staff/orders/${orderId}/files`, { schema: () => loadStaff().then((m) => m.staffOrderFileListSchema) }),
  });

/** ADR 0071: one of the order's files, through a download link (lib/download, ADR 0080). */
export const downloadStaffOrderFile = (orderId: number, file: StaffOrderFile, onProgress?: (percent: number) => void) =>
  downloadFrom(`/api/staff/orders/${orderId}/files/${file.id}`, file.name, onProgress);

/** CONTRACT "Staff side": PUT /api/staff/orders/{id}/writer { idWriter } (support; 422 for a non-writer). */
export const useAssignWriter = (orderId: number) =>
  useOrderWrite(orderId, (idWriter: number) =>
    apiFetch(`/api/staff/orders/${orderId}/writer`, {
      method: 'PUT',
      json: { idWriter },
      schema: () => loadStaff().then((m) => m.staffOrderViewSchema),
    }),
  );

/**
 * CONTRACT "Staff side": POST /api/staff/orders/{id}/files (multipart `file`), a writer file of the
 * order. lib/upload reports the progress and cancels (DESIGN rule 9).
 */
export const deliverOrderFile = (
  orderId: number,
  file: File,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
): Promise<OrderFile> =>
  postForm({
    url: `/api/staff/orders/${orderId}/files`,
    fields: { file },
    schema: () => import('@app/domain/files').then((m) => m.orderFileSchema),
    onProgress,
    signal,
  });

/** After a delivery or a proposal the view is read again (it carries the delivery, the proposal and the timeline). */
const useAfterPaymentWrite = <V>(orderId: number, write: (value: V) => Promise<unknown>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: staffKeys.order(orderId) });
      void queryClient.invalidateQueries({ queryKey: staffKeys.queues() });
    },
  });
};

/** CONTRACT "After payment": POST /api/staff/orders/{id}/delivery { message? } (assigned writer, support). */
export const useSubmitDelivery = (orderId: number) =>
  useAfterPaymentWrite(orderId, (message: string) =>
    apiFetch(`/api/staff/orders/${orderId}/delivery`, { method: 'POST', json: { message } }),
  );

/** CONTRACT "After payment": POST /api/staff/orders/{id}/extensions { deadline, reason } (assigned writer, support). */
export const useProposeDeadline = (orderId: number) =>
  useAfterPaymentWrite(orderId, (body: { deadline: string; reason: string }) =>
    apiFetch(`/api/staff/orders/${orderId}/extensions`, { method: 'POST', json: body }),
  );
