import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { paths } from '@/config/paths';
import { useCurrentCustomer } from '@/features/customer/api/get-customer';

/** The history state a guard leaves for /login: the page to return to after sign-in. */
export interface FromState {
  from?: string;
}

/** SPEC §2 "All routes except /order need an authorised user": others go to /login and come back. */
export function RequireCustomer({ children }: { children: ReactNode }) {
  const customer = useCurrentCustomer();
  const [pathname] = useLocation();
  const search = useSearch();
  if (customer === null) {
    const state: FromState = { from: search === '' ? pathname : `${pathname}?${search}` };
    return <Redirect to={paths.login} replace state={state} />;
  }
  return children;
}
