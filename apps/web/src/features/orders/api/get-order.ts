import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderDetail } from '@app/domain/order';
import { apiFetch } from '@/lib/api-client';
import { orderKeys } from './keys';

/** SPEC §7: GET /api/en/orders/{id}, parsed with the domain's order detail schema. */
export const getOrder = (id: number, signal?: AbortSignal): Promise<OrderDetail> =>
  apiFetch(`/api/en/orders/${id}`, {
    schema: () => import('@app/domain/order').then((m) => m.orderDetailSchema),
    ...(signal ? { signal } : {}),
  });

export const orderQueryOptions = (id: number) =>
  queryOptions({ queryKey: orderKeys.detail(id), queryFn: ({ signal }) => getOrder(id, signal), retry: false });

export const useOrder = (id: number) => useQuery(orderQueryOptions(id));
