import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import type { OrderDetail } from '@app/domain/order';
import { API_PATH } from '@app/domain/routes';
import { apiFetch } from '../api-client';

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
  apiFetch(API_PATH.order(id), {
    schema: () => import('@app/domain/order').then((m) => m.orderDetailSchema),
    // ADR 0101: the order page's first paint waits on this answer, not on zod: checked once the page is drawn.
    check: 'after',
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
 * An order was created, edited, paid or otherwise changed: every cached answer about orders (its detail
 * and files, the lists, the counts) is stale. The ones on screen are fetched again before this resolves,
 * so a page opened next shows the order as it is now. Never throws (a failed refetch shows on its page).
 */
export const ordersChanged = (queryClient: QueryClient): Promise<void> =>
  queryClient.invalidateQueries({ queryKey: orderKeys.all }).catch(() => undefined);
