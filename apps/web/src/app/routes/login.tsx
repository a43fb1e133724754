import { Redirect } from 'wouter';
import { useHistoryState } from 'wouter/use-browser-location';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { currentCustomerQueryOptions, useCurrentCustomer } from '@/features/customer/api/get-customer';
import { tokenStorage } from '@/lib/storage';
import type { FromState } from './require-customer';
import { StandalonePage } from './standalone-layout';

/** UI contract "/login": signed-in customers go on to the page they wanted, or /dashboard. */
export function Component() {
  const customer = useCurrentCustomer();
  const queryClient = useQueryClient();
  const from = useHistoryState<FromState | null>()?.from;

  if (customer !== null) {
    return <Redirect to={from ?? paths.dashboard} replace />;
  }

  const onSignedIn = async (): Promise<boolean> => {
    const signedIn = await queryClient.fetchQuery({ ...currentCustomerQueryOptions(), staleTime: 0 });
    // A writer or support account has no customer area (CONTRACT "Staff side"): do not keep its tokens.
    if (signedIn === null) tokenStorage.clear();
    return signedIn !== null;
  };

  return (
    <StandalonePage title="Sign in">
      <LoginForm onSignedIn={onSignedIn} />
    </StandalonePage>
  );
}
