import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderCount } from '@app/domain/order';
import { API_PATH } from '@app/domain/routes';
import { apiFetch } from '@/lib/api-client';
import { orderKeys } from '@/lib/resources/orders';

/** CONTRACT "Paths": GET /api/en/orders/count → { total, byStatus }. */
export const getOrderCount = (): Promise<OrderCount> =>
  apiFetch(API_PATH.orderCount, { schema: () => import('@app/domain/order').then((m) => m.orderCountSchema), check: 'after' });

export const orderCountQueryOptions = () => queryOptions({ queryKey: orderKeys.count(), queryFn: getOrderCount });

/** SPEC §2: loaded once the customer is known. */
export const useOrderCount = (enabled: boolean) => useQuery({ ...orderCountQueryOptions(), enabled });
