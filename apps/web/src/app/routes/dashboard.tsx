import { OrdersDashboard } from '@/features/orders/components/orders-dashboard';
import { PayButton } from '@/features/payment/components/pay-button';
import { useSiteSettings } from '@/features/settings/api/get-site-settings';
import { PageHeading } from '@/components/ui/page-heading';
import { useOrderCount } from '@/features/orders/api/get-order-count';
import { PushPrompt } from '@/features/notifications/components/push-prompt';

/** SPEC §2 "/dashboard: All orders list", each unpaid card with the payment flow (ADR 0023). */
export function Component() {
  const settings = useSiteSettings();
  // ADR 0088: browser notifications are offered once the customer has an order.
  const orderCount = useOrderCount(true);
  // Startup (SPEC §2) fetched the settings before any route renders.
  const site = settings.data;
  const category = site?.siteCategories[0];
  return (
    <div className="flex flex-col gap-6">
      <PageHeading>All Orders</PageHeading>
      <PushPrompt hasOrder={(orderCount.data?.total ?? 0) > 0} />
      {category !== undefined && (
        <OrdersDashboard category={category} payAction={(order) => site && <PayButton order={order} settings={site} withOrderNumber />} />
      )}
    </div>
  );
}
