import { Redirect, useLocation } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { currentCustomerQueryOptions, useCurrentCustomer } from '@/features/customer/api/get-customer';
import { tokenStorage } from '@/lib/storage';
import type { FromState } from './require-customer';
import { StandalonePage } from './standalone-layout';

const isStaffPath = (path: string): boolean => path === paths.staff || path.startsWith(`${paths.staff}/`);

/**
 * UI contract "/login": signed-in customers go on to the page they wanted, or /dashboard. A writer or
 * support account has no customer area (CONTRACT "Staff side"): it goes on to the staff console (ADR 0059).
 */
export function Component() {
  const customer = useCurrentCustomer();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const from = useHistoryState<FromState | null>()?.from;

  if (customer !== null) {
    return <Redirect to={from !== undefined && !isStaffPath(from) ? from : paths.dashboard} replace />;
  }

  const onSignedIn = async (): Promise<boolean> => {
    const signedIn = await queryClient.fetchQuery({ ...currentCustomerQueryOptions(), staleTime: 0 });
    if (signedIn !== null) return true;
    // Asked only after a sign-in that is no customer's: its code is not part of the form's first paint.
    const { staffMeQueryOptions } = await import('@/features/staff/api/get-staff-me');
    const staff = await queryClient.fetchQuery({ ...staffMeQueryOptions(), staleTime: 0 });
    if (staff !== null) {
      navigate(from !== undefined && isStaffPath(from) ? from : paths.staff, { replace: true });
      return true;
    }
    // Neither a customer nor staff (no role the app serves): do not keep its tokens.
    tokenStorage.clear();
    return false;
  };

  return (
    <StandalonePage title="Sign in">
      <LoginForm onSignedIn={onSignedIn} />
    </StandalonePage>
  );
}
