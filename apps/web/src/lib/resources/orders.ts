import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import type { OrderDetail } from '@app/domain/order';
import { apiErrorFor, apiFetch } from '../api-client';
import { uploadWithProgress } from '../upload';

/**
 * The customer's orders as a server resource (ADR 0056): this module owns their query keys, the order
 * detail's and its files' reads, and what a change to an order makes stale. Every feature that shows or
 * changes an order (the order page, the dashboard, the wizard that edits it, the payment flow) goes
 * through it, so one order is cached under one key and an edit reaches every screen that shows it.
 */
export const orderKeys = {
  all: ['orders'] as const,
  count: () => [...orderKeys.all, 'count'] as const,
  byUid: (uid: string) => [...orderKeys.all, 'uid', uid] as const,
  lists: () => [...orderKeys.all, 'list'] as const,
  /** one page of the list: the category of the path and the CONTRACT query, as sent */
  list: (category: number, query: string) => [...orderKeys.lists(), category, query] as const,
  details: () => [...orderKeys.all, 'detail'] as const,
  detail: (id: number) => [...orderKeys.details(), id] as const,
  files: (id: number, side: FileSide) => [...orderKeys.detail(id), 'files', side] as const,
};

export type FileSide = 'customers' | 'writers';

/** SPEC §7: GET /api/en/orders/{id}, parsed with the domain's order detail schema. */
export const getOrder = (id: number, signal?: AbortSignal): Promise<OrderDetail> =>
  apiFetch(`/api/en/orders/${id}`, {
    schema: () => import('@app/domain/order').then((m) => m.orderDetailSchema),
    ...(signal ? { signal } : {}),
  });

export const orderQueryOptions = (id: number) =>
  queryOptions({ queryKey: orderKeys.detail(id), queryFn: ({ signal }) => getOrder(id, signal), retry: false });

/** SPEC §7: GET /api/en/orders/{id}/customers/files and /writers/files. */
export const getOrderFiles = (orderId: number, side: FileSide): Promise<OrderFile[]> =>
  apiFetch(`/api/en/orders/${orderId}/${side}/files`, {
    schema: () => import('@app/domain/files').then((m) => m.orderFileListSchema),
  });

export const orderFilesQueryOptions = (orderId: number, side: FileSide) =>
  queryOptions({ queryKey: orderKeys.files(orderId, side), queryFn: () => getOrderFiles(orderId, side) });

/**
 * CONTRACT "Paths": POST /api/en/orders/{id}/customers/files, one multipart `file` per request, with its
 * progress (DESIGN rule 9, `lib/upload.ts`); `signal` cancels it. Answers the stored file.
 */
export const uploadOrderFile = async (
  orderId: number,
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<OrderFile> => {
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = await uploadWithProgress({ url: `/api/en/orders/${orderId}/customers/files`, form, onProgress, ...(signal ? { signal } : {}) });
  if (answer.status < 200 || answer.status >= 300) throw apiErrorFor(answer.status, answer.body);
  onProgress(100);
  return answer.body as OrderFile;
};

/**
 * An order was created, edited, paid or otherwise changed: every cached answer about orders (its detail
 * and files, the lists, the counts) is stale. The ones on screen are fetched again before this resolves,
 * so a page opened next shows the order as it is now. Never throws (a failed refetch shows on its page).
 */
export const ordersChanged = (queryClient: QueryClient): Promise<void> =>
  queryClient.invalidateQueries({ queryKey: orderKeys.all }).catch(() => undefined);
