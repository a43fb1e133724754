import type { QueryClient } from '@tanstack/react-query';
import { parseDashboardFilters } from '@app/domain/dashboard/rules';
import { orderIdOfPage } from '@app/domain/routes';
import { warmDateFormats } from '@/lib/dates';
import { orderQueryOptions } from '@/lib/resources/orders';
import { orderCountQueryOptions } from './get-order-count';
import { orderListQueryOptions } from './get-orders';

/**
 * ADR 0100: what /dashboard shows first (the order count and the list of the filters in the address), in the
 * cache before the app's first render, from the answers the page asked for itself (lib/early-requests.ts):
 * the page is drawn in that one render, sliced, instead of again, whole, when each answer arrives.
 */
export const prefetchDashboard = async (queryClient: QueryClient, category: number | undefined, search: string): Promise<void> => {
  warmDateFormats();
  await Promise.all([
    queryClient.prefetchQuery(orderCountQueryOptions()),
    category === undefined
      ? undefined
      : queryClient.prefetchQuery(orderListQueryOptions(category, parseDashboardFilters(new URLSearchParams(search)))),
  ]);
};

/** ADR 0100: the order that /orderinfo/{id}/… shows, likewise. */
export const prefetchOrderPage = async (queryClient: QueryClient, pathname: string): Promise<void> => {
  warmDateFormats();
  const id = orderIdOfPage(pathname);
  if (id !== undefined) await queryClient.prefetchQuery(orderQueryOptions(id));
};
