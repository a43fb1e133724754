import { OrdersDashboard } from '@/features/orders/components/orders-dashboard';
import { PayButton } from '@/features/payment/components/pay-button';
import { useSiteSettings } from '@/features/settings/api/get-site-settings';
import { PageHeading } from '@/components/ui/page-heading';
import { Spinner } from '@/components/ui/spinner';
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
  // ADR 0098: the prompt above the orders waits for the count; the orders are shown with it, so that it never
  // arrives above them and pushes them down (CLS 0.17 at 390 px). They are mounted from the start (their list
  // is asked for at once, beside the count), only not shown until then.
  const countKnown = !orderCount.isPending;
  return (
    <div className="flex flex-col gap-6">
      <PageHeading>All Orders</PageHeading>
      {!countKnown && (
        <p className="flex items-center gap-2 text-slate-700" role="status">
          <Spinner /> Loading…
        </p>
      )}
      <div className={countKnown ? 'flex flex-col gap-6' : 'hidden'}>
        <PushPrompt hasOrder={(orderCount.data?.total ?? 0) > 0} />
        {category !== undefined && (
          <OrdersDashboard category={category} payAction={(order) => site && <PayButton order={order} settings={site} withOrderNumber />} />
        )}
      </div>
    </div>
  );
}
