import { lazy, Suspense, useState } from 'react';
import { useSearchParams } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '@/config/paths';
import { currentCustomerQueryOptions, useCurrentCustomer } from '@/features/customer/api/get-customer';
import { OrderWizard } from '@/features/order-wizard/components/order-wizard';
import { payNowSearch } from '@/features/payment/lib/return-params';
import { useSiteSettings } from '@/features/settings/api/get-site-settings';

// The dialog (Radix) is not part of the first paint of /order (ADR 0025).
const ForgotPasswordDialog = lazy(() =>
  import('@/features/auth/components/forgot-password-dialog').then((m) => ({ default: m.ForgotPasswordDialog })),
);

/** SPEC §2 "/order": the wizard, composed with the customer and the sign-in pieces of other features. */
export function Component() {
  const customer = useCurrentCustomer();
  const settings = useSiteSettings();
  const queryClient = useQueryClient();
  const [forgotOpen, setForgotOpen] = useState(false);
  // SPEC §4 "The express checkout path leads to payment directly": a new order's page opens the payment
  // flow at once (?pay=1, ADR 0023); an edited order's page does not.
  const editing = useSearchParams()[0].has('editingOrderId');
  if (!settings.data) return null;
  return (
    <>
      <OrderWizard
        settings={settings.data}
        customer={customer}
        onAuthenticated={() => queryClient.fetchQuery({ ...currentCustomerQueryOptions(), staleTime: 0 })}
        onForgotPassword={() => setForgotOpen(true)}
        orderPath={(id) => (editing ? paths.orderInfo(id) : `${paths.orderInfo(id)}${payNowSearch}`)}
        dashboardPath={paths.dashboard}
      />
      {forgotOpen && (
        <Suspense fallback={null}>
          <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} />
        </Suspense>
      )}
    </>
  );
}
