import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { Customer } from '@app/domain/customer';
import { API_PATH } from '@app/domain/routes';
import { ApiError, apiFetch } from '@/lib/api-client';
import { QUERY_PARAM } from '@/config/paths';
import { tokenStorage } from '@/lib/storage';
import { customerKeys } from './keys';

export const CUSTOMER_PATH = API_PATH.customer;

export const loadCustomerSchema = () => import('@app/domain/customer').then((m) => m.customerSchema);

/** The startup's user check paints before the schema checks the answer (ADR 0028). */
export const getCustomer = (): Promise<Customer> => apiFetch(CUSTOMER_PATH, { schema: loadCustomerSchema, check: 'after' });

/**
 * SPEC §2 "check the user": the signed-in customer, or null for a visitor. A 401 that survived the
 * refresh and a 404 (a staff account: CONTRACT "Staff side") both mean "no customer here".
 */
export const getCurrentCustomer = async (): Promise<Customer | null> => {
  if (!tokenStorage.hasAny()) return null;
  try {
    return await getCustomer();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 404)) return null;
    throw error;
  }
};

export const currentCustomerQueryOptions = () =>
  queryOptions({ queryKey: customerKeys.current(), queryFn: getCurrentCustomer, staleTime: 5 * 60_000 });

/**
 * Before the first render (ADR 0057): a browser with no token and no magic link is a visitor, which
 * `getCurrentCustomer` would answer without a call; the cache knows it at once, so the first render
 * draws the page instead of the startup's loading state.
 */
export const primeVisitor = (queryClient: QueryClient, search: string): void => {
  if (!tokenStorage.hasAny() && !new URLSearchParams(search).has(QUERY_PARAM.magicLink)) {
    queryClient.setQueryData(customerKeys.current(), null);
  }
};

export const useCurrentCustomerQuery = (options: { enabled?: boolean } = {}) =>
  useQuery({ ...currentCustomerQueryOptions(), enabled: options.enabled ?? true });

/** The signed-in customer; null for a visitor (and before the startup has checked). */
export const useCurrentCustomer = (): Customer | null => useCurrentCustomerQuery().data ?? null;
