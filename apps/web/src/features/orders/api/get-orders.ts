import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { DASHBOARD_PAGE_SIZE } from '@app/domain/order/rules';
import type { OrderList } from '@app/domain/order-list';
import { API_PATH } from '@app/domain/routes';
import { orderListRequestParams, type DashboardFilters } from '@app/domain/dashboard/rules';
import { apiFetch } from '@/lib/api-client';
import { orderKeys } from '@/lib/resources/orders';

/**
 * SPEC §7 / CONTRACT "Order list query": GET …/categories/{category}/orders. The list covers every
 * category of the customer; the path's category is the site's first.
 */
export const getOrders = (category: number, query: string, signal?: AbortSignal): Promise<OrderList> =>
  apiFetch(API_PATH.orderList(category, query), {
    schema: () => import('@app/domain/order-list').then((m) => m.orderListSchema),
    // ADR 0101: the dashboard's first paint waits on this answer, not on zod: checked once the page is drawn.
    check: 'after',
    ...(signal ? { signal } : {}),
  });

export const orderListQueryOptions = (category: number, filters: DashboardFilters) => {
  const query = orderListRequestParams(filters, DASHBOARD_PAGE_SIZE).toString();
  return queryOptions({
    queryKey: orderKeys.list(category, query),
    queryFn: ({ signal }) => getOrders(category, query, signal),
  });
};

/** The page being looked at; while the next one loads the previous stays on screen (no flash). */
export const useOrderList = (category: number, filters: DashboardFilters) =>
  useQuery({ ...orderListQueryOptions(category, filters), placeholderData: keepPreviousData });
