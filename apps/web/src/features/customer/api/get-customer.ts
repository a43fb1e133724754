import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Customer } from '@app/domain/customer';
import { ApiError, apiFetch } from '@/lib/api-client';
import { tokenStorage } from '@/lib/storage';
import { customerKeys } from './keys';

export const CUSTOMER_PATH = '/api/en/customers/customer';

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

export const useCurrentCustomerQuery = (options: { enabled?: boolean } = {}) =>
  useQuery({ ...currentCustomerQueryOptions(), enabled: options.enabled ?? true });

/** The signed-in customer; null for a visitor (and before the startup has checked). */
export const useCurrentCustomer = (): Customer | null => useCurrentCustomerQuery().data ?? null;
