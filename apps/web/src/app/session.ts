import type { QueryClient } from '@tanstack/react-query';
import { customerKeys } from '@/features/customer/api/keys';
import { settingsKeys } from '@/features/settings/api/keys';

/**
 * UI contract "Logout": the query cache is cleared. Site settings are not the customer's data and
 * outlive the session; the current customer becomes "nobody" at once so guards redirect without a
 * round trip.
 */
export const clearSessionCache = (queryClient: QueryClient): void => {
  // Set, not removed: components observing the current customer must see the change.
  queryClient.setQueryData(customerKeys.current(), null);
  const currentCustomerHash = JSON.stringify(customerKeys.current());
  queryClient.removeQueries({
    predicate: (query) => query.queryKey[0] !== settingsKeys.all[0] && query.queryHash !== currentCustomerHash,
  });
};
