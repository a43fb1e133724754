import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '@/config/paths';
import { useCurrentCustomer } from '@/features/customer/api/get-customer';

/** The state a guard leaves for /login: the page to return to after sign-in. */
export interface FromState {
  from?: { pathname: string; search: string; hash: string };
}

/** SPEC §2 "All routes except /order need an authorised user": others go to /login and come back. */
export function RequireCustomer() {
  const customer = useCurrentCustomer();
  const location = useLocation();
  if (customer === null) {
    const state: FromState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
    return <Navigate to={paths.login} replace state={state} />;
  }
  return <Outlet />;
}
