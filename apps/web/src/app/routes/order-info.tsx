import { lazy, memo, Suspense, useCallback, useMemo } from 'react';
import { Redirect, useLocation, useParams, useSearchParams } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { ORDER_INFO_TABS, paths, type OrderInfoTab } from '@/config/paths';
import type { OrderDetail } from '@app/domain/order';
import { ordersChanged } from '@/lib/resources/orders';
import { OrderPage } from '@/features/orders/components/order-page';
import type { UpgradeCharge } from '@/features/orders/components/upgrade-panel';
import { OrderMoneyNotice } from '@/features/payment/components/order-money-notice';
import { PayButton } from '@/features/payment/components/pay-button';
import { PaymentReturn } from '@/features/payment/components/payment-return';
import { isConfirmingPayment } from '@/features/payment/lib/return-params';
import { useSiteSettings } from '@/features/settings/api/get-site-settings';
import { OrderRevisionSummary } from '@/features/revisions/components/order-revision-summary';
import { Spinner } from '@/components/ui/spinner';
import { useOrderUnread } from '@/lib/chat/unread-queries';

// The Revisions tab (list, wizard, info modal) loads when it is opened: the order page stays light (ADR 0044).
// Both tabs stay as they are while another tab is chosen (memo, with steady props): a switch draws the
// tabs, not the whole conversation again (ADR 0101).
const RevisionsTab = lazy(() => import('@/features/revisions/components/revisions-tab').then((m) => ({ default: memo(m.RevisionsTab) })));

// The messenger (both chats, pickers, uploads) loads when the Messages tab opens (ADR 0049).
const MessagesTab = lazy(() => import('@/features/chat/components/messages-tab').then((m) => ({ default: memo(m.MessagesTab) })));

const revisionSummary = (order: OrderDetail) => <OrderRevisionSummary order={order} />;

const isOrderInfoTab = (value: string | undefined): value is OrderInfoTab => ORDER_INFO_TABS.some((tab) => tab === value);

/** SPEC §2 "/orderinfo/{id}" with its sub-tabs, composed with the payment feature and the site's settings. */
export function Component() {
  const { id = '', tab } = useParams();
  const [searchParams] = useSearchParams();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const settings = useSiteSettings();
  // A paid order changes its page, its dashboard card and the nav's counts (ADR 0023: without a reload).
  const onPaid = useCallback(() => void ordersChanged(queryClient), [queryClient]);
  const onPanelChange = useCallback(
    (chat: string) => void navigate(`${paths.orderInfo(id, 'messages')}?panel=${chat}`, { replace: true }),
    [navigate, id],
  );
  // Startup (SPEC §2) fetched the settings before any route renders.
  const site = settings.data;
  const confirming = isConfirmingPayment(searchParams);
  // Steady while only the tab changes (ADR 0101): the order page then keeps what is around its tabs as it is.
  const notice = useCallback(
    (order: OrderDetail) =>
      site && (
        <>
          <PaymentReturn order={order} settings={site} onPaid={onPaid} />
          {!confirming && <OrderMoneyNotice order={order} settings={site} />}
        </>
      ),
    [site, confirming, onPaid],
  );
  const payAction = useCallback(
    (order: OrderDetail) => (site && !confirming ? <PayButton order={order} settings={site} /> : null),
    [site, confirming],
  );
  // ADR 0086: an upgrade's difference is paid through the payment feature's one chooser.
  const upgrade = useMemo(
    () =>
      site
        ? {
            idSite: site.idSite,
            pay: (order: OrderDetail, charge: UpgradeCharge) => <PayButton order={order} settings={site} upgrade={charge} />,
          }
        : undefined,
    [site],
  );
  const validId = /^\d{1,10}$/.test(id);
  const messengerOn = settings.data?.disableOrderMessenger === false;
  const unread = useOrderUnread('customer', Number(id), validId && messengerOn);
  if (!validId) return <Redirect to={paths.notFound} replace />;
  if (!isOrderInfoTab(tab)) {
    const search = searchParams.toString();
    return <Redirect to={`${paths.orderInfo(id)}${search === '' ? '' : `?${search}`}`} replace />;
  }
  const revisionParam = /^\d{1,10}$/.test(searchParams.get('revision') ?? '') ? Number(searchParams.get('revision')) : null;
  return (
    <OrderPage
      key={id}
      orderId={Number(id)}
      tab={tab}
      onTabChange={(next) => void navigate(paths.orderInfo(id, next))}
      payAction={payAction}
      notice={notice}
      summary={revisionSummary}
      upgrade={upgrade}
      upgradeReturn={searchParams.get('upgrade')}
      unread={messengerOn ? unread.total : 0}
      messages={
        messengerOn
          ? (order) => (
              // SPEC §2: `?panel=support` opens the support chat; the chosen chat stays in the address.
              <Suspense fallback={<Spinner />}>
                <MessagesTab
                  orderId={order.id}
                  hasWriter={order.idWriter !== null}
                  panel={searchParams.get('panel')}
                  onPanelChange={onPanelChange}
                />
              </Suspense>
            )
          : undefined
      }
      revisions={(order) => (
        // The completion mail links to `?revision={id}`, which opens that revision (ADR 0044). A new
        // revision changes the order (its activeRevision): it is reloaded as after a payment.
        <Suspense fallback={<Spinner />}>
          <RevisionsTab orderId={order.id} initialRevisionId={revisionParam} onChanged={onPaid} />
        </Suspense>
      )}
    />
  );
}
