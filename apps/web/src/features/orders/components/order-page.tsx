import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { ArrowLeft, Eye, MessagesSquare, RotateCcw } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { ORDER_MESSAGE } from '@app/domain/order/rules';
import type { OrderDetail } from '@app/domain/order';
import { isRevisionsTabEnabled, ORDER_TAB_MESSAGE } from '@app/domain/dashboard/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { whenIdle } from '@/lib/idle';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { paths, type OrderInfoTab } from '@/config/paths';
import { useOrder } from '../api/get-order';
import { useSetOrderHidden } from '../api/set-order-hidden';
import { orderTitle, StatusHint } from './order-card';
import { OrderDetails } from './order-details';
import { DeliveryPanel, ExtensionRequestCard } from './delivery-panel';
import { CancelPanel } from './cancel-panel';
import { PageHeading } from '@/components/ui/page-heading';
import { UpgradePanel, UpgradeReturnNotice, type UpgradeCharge } from './upgrade-panel';

// ADR 0101: the review form (react-hook-form) loads when asked for, not with the page; the Files tab (its drop
// zone) when opened, as the Messages and Revisions tabs do.
const OrderFilesTab = lazy(() => import('./order-files-tab').then((m) => ({ default: m.OrderFilesTab })));
const FeedbackDialog = lazy(() => import('./feedback-dialog').then((m) => ({ default: m.FeedbackDialog })));

const backToOrders = (
  <Link to={paths.dashboard} className="inline-flex items-center gap-2">
    <Icon icon={ArrowLeft} className="size-4" />
    Back to All Orders
  </Link>
);

/** SPEC §8 "A hidden order or a fetch failure sets an order error state". */
function OrderError() {
  return (
    <div className="flex flex-col items-start gap-4">
      <Alert tone="error">{ORDER_MESSAGE.fetchOrderFailed}</Alert>
      {backToOrders}
    </div>
  );
}

/**
 * Issue 27: a hidden order's error state says what it is and offers the way back, the dashboard's own
 * hide/unhide call; once unhidden the order is read again and shown.
 */
function HiddenOrder({ orderId }: { orderId: number }) {
  const unhide = useSetOrderHidden({ onFailure: (error) => toast.error(errorMessage(error)) });
  return (
    <div className="flex flex-col items-start gap-4">
      <Alert tone="warning" title="This order is hidden">
        It is left out of your order list. Unhide it to see it here and in the list again.
      </Alert>
      <div className="flex flex-wrap items-center gap-4">
        <Button busy={unhide.isPending} onClick={() => unhide.mutate({ id: orderId, hidden: false })}>
          <Icon icon={Eye} className="size-4" />
          Unhide
        </Button>
        {backToOrders}
      </div>
    </div>
  );
}

interface OrderPageProps {
  orderId: number;
  tab: OrderInfoTab;
  onTabChange: (tab: OrderInfoTab) => void;
  /** the Pay action of an unpaid order (the payment feature, composed by the route) */
  payAction: (order: OrderDetail) => ReactNode;
  /** shown above the tabs once the order is loaded (the payment return state) */
  notice?: (order: OrderDetail) => ReactNode;
  /** above the tabs: the deadline's calendar file and the revision window (the revisions feature) */
  summary?: (order: OrderDetail) => ReactNode;
  /** the Revisions tab's content (the revisions feature, composed by the route) */
  revisions?: (order: OrderDetail) => ReactNode;
  /** the Messages tab's content (the chat feature, composed by the route) */
  messages?: (order: OrderDetail) => ReactNode;
  /** the order's unread messages, live (the chat feature): the tab's count and 'You have unread messages' */
  unread?: number;
  /** ADR 0086: the upgrade panel's site (its urgencies) and how its difference is paid (the payment feature's chooser) */
  upgrade?: { idSite: number; pay: (order: OrderDetail, charge: UpgradeCharge) => ReactNode };
  /** ADR 0086: `?upgrade=` of the provider's return: success, fail or closed */
  upgradeReturn?: string | null;
}

/** SPEC §2 "/orderinfo/{id}" with its sub-tabs details, files, messages, revisions. */
export function OrderPage({
  orderId,
  tab,
  onTabChange,
  payAction,
  notice,
  summary,
  revisions,
  messages,
  unread = 0,
  upgrade,
  upgradeReturn = null,
}: OrderPageProps) {
  const order = useOrder(orderId);
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  // ADR 0101: a chosen tab shows at once; the address follows once that is painted (a new address draws the
  // route again: its work comes after the tab is on screen). A tab the address brings (back, a link) wins.
  const [chosen, setChosen] = useState<{ from: OrderInfoTab; tab: OrderInfoTab }>({ from: tab, tab });
  const shownTab = chosen.from === tab ? chosen.tab : tab;
  // Once painted and idle (at most 300 ms); only the last of quick choices (an earlier one would show again
  // for a moment), and none once the page is left (it would bring the customer back).
  const pendingTab = useRef<() => void>(() => undefined);
  useEffect(() => () => pendingTab.current(), []);
  const chooseTab = (next: OrderInfoTab) => {
    setChosen({ from: tab, tab: next });
    pendingTab.current();
    let cancelIdle: () => void = () => undefined;
    const frame = requestAnimationFrame(() => {
      cancelIdle = whenIdle(() => onTabChange(next), { timeout: 300, fallbackMs: 50 });
    });
    pendingTab.current = () => {
      cancelAnimationFrame(frame);
      cancelIdle();
    };
  };
  const leaveFeedback = useCallback(() => setFeedbackOpen(true), []);
  // What is around the tabs stays as it is while another tab is chosen (the same elements: React skips them).
  const loaded = order.data;
  const above = useMemo(
    () =>
      loaded && (
        <>
          <StatusHint status={loaded.status} />
          {notice?.(loaded)}
          <UpgradeReturnNotice result={upgradeReturn} />
          {/* ADR 0084: a proposed deadline waits for an answer; the page opens on the delivery, not the specification. */}
          <ExtensionRequestCard order={loaded} />
          <DeliveryPanel order={loaded} />
          {summary?.(loaded)}
          {upgrade && <UpgradePanel order={loaded} idSite={upgrade.idSite} pay={(charge) => upgrade.pay(loaded, charge)} />}
        </>
      ),
    [loaded, notice, summary, upgrade, upgradeReturn],
  );
  const below = useMemo(
    () =>
      loaded && (
        <>
          {/* ADR 0087: what a cancel would return now, the cancel or a dispute, and support's outcome. */}
          <CancelPanel order={loaded} />
        </>
      ),
    [loaded],
  );

  const heading = (
    <div className="flex flex-col gap-1">
      <PageHeading>Order #{orderId}</PageHeading>
      {order.data && order.data.hidden !== 'YES' && <p className="text-slate-700 break-words">{orderTitle(order.data)}</p>}
    </div>
  );

  if (order.isPending) {
    return (
      <div className="flex flex-col gap-6">
        {heading}
        <p role="status" className="flex items-center gap-2 text-slate-700">
          <Spinner /> Loading the order…
        </p>
      </div>
    );
  }
  if (order.isSuccess && order.data.hidden === 'YES') {
    return (
      <div className="flex flex-col gap-6">
        {heading}
        <HiddenOrder orderId={orderId} />
      </div>
    );
  }
  if (order.isError) {
    return (
      <div className="flex flex-col gap-6">
        {heading}
        <OrderError />
      </div>
    );
  }

  const data = order.data;
  const revisionsEnabled = isRevisionsTabEnabled(data.status);
  return (
    <div className="flex flex-col gap-6">
      {heading}
      {above}
      <Tabs
        label="Order"
        value={shownTab === 'revisions' && !revisionsEnabled ? 'details' : shownTab}
        onValueChange={chooseTab}
        items={[
          {
            value: 'details',
            label: 'Order details',
            // Coming back from Messages shows it as it was instead of building it again (issue 27's tab switch).
            keepMounted: true,
            content: <OrderDetails order={data} payAction={payAction} onLeaveFeedback={leaveFeedback} />,
          },
          {
            value: 'files',
            label: 'Files',
            content: (
              <Suspense fallback={<Spinner />}>
                <OrderFilesTab orderId={orderId} status={data.status} />
              </Suspense>
            ),
          },
          {
            value: 'messages',
            label: 'Messages',
            keepMounted: true,
            tooltip: unread > 0 ? ORDER_TAB_MESSAGE.unreadMessages : undefined,
            badge:
              unread > 0 ? (
                <span className="rounded-full bg-primary px-1.5 text-xs font-semibold text-on-primary">
                  {unread}
                  <span className="sr-only"> unread</span>
                </span>
              ) : undefined,
            content: messages?.(data) ?? (
              <EmptyState icon={MessagesSquare} title="Messages">
                <p>Messaging is not available on this site. Please write to us by email.</p>
              </EmptyState>
            ),
          },
          {
            value: 'revisions',
            label: 'Revisions',
            // CONTRACT "Revisions": enabled only in status 5; the tooltip while a revision is active, or why it is closed.
            disabled: !revisionsEnabled,
            // Issue 27: a greyed-out tab says why.
            tooltip:
              data.activeRevision !== null
                ? ORDER_TAB_MESSAGE.activeRevision
                : !revisionsEnabled
                  ? ORDER_TAB_MESSAGE.revisionsClosed
                  : undefined,
            content: revisions?.(data) ?? (
              <EmptyState icon={RotateCcw} title="Revisions">
                <p>Requesting a free revision of this order from this page is coming soon.</p>
              </EmptyState>
            ),
          },
        ]}
      />
      {below}
      {feedbackOpen && (
        <Suspense fallback={null}>
          <FeedbackDialog orderId={orderId} open={feedbackOpen} onOpenChange={setFeedbackOpen} />
        </Suspense>
      )}
    </div>
  );
}
