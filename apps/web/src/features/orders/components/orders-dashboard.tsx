import { lazy, Suspense, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { ClipboardList, LayoutGrid, List, SlidersHorizontal } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { DASHBOARD_PAGE_SIZE, ORDER_MESSAGE } from '@app/domain/order/rules';
import { activeFilterCount, pageWindow, type DashboardFilters } from '@app/domain/dashboard/rules';
import type { OrderListItem } from '@app/domain/order-list';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClass } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useOrderList } from '../api/get-orders';
import { useSetOrderHidden } from '../api/set-order-hidden';
import { useDashboardFilters } from '../hooks/use-dashboard-filters';
import { useNow } from '@/lib/use-now';
import { useWideScreen } from '@/lib/use-wide-screen';
import { useViewMode, type ViewMode } from '../hooks/use-view-mode';
import { OrderCard } from './order-card';
import { OrderFilters } from './order-filters';

function ViewToggle({ mode, onChange }: { mode: ViewMode; onChange: (mode: ViewMode) => void }) {
  const option = (value: ViewMode, label: string, icon: typeof List) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => onChange(value)}
      className={`inline-flex items-center gap-1.5 rounded px-3 py-1.5 text-sm font-medium ${
        mode === value ? 'bg-primary text-on-primary' : 'text-slate-800 hover:bg-slate-200/70'
      }`}
    >
      <Icon icon={icon} className="size-4" />
      {label}
    </button>
  );
  return (
    <div role="group" aria-label="View" className="inline-flex gap-1 rounded-md border border-slate-300 bg-white p-1">
      {option('grid', 'Grid', LayoutGrid)}
      {option('list', 'List', List)}
    </div>
  );
}

// Issue 27: the feedback dialog opens from a completed order's card; its code loads when it is asked for.
const FeedbackDialog = lazy(() => import('./feedback-dialog').then((m) => ({ default: m.FeedbackDialog })));

type FiltersProps = Parameters<typeof OrderFilters>[0];

/**
 * Issue 27: below 992 px the filters would fill the first screen; they wait behind "Filters" (with the
 * count of those active) in a sheet. The list behind it follows each change at once.
 */
function FiltersSheet({ filters, onChange, onClear }: Omit<FiltersProps, 'bare'> & { filters: DashboardFilters }) {
  const [open, setOpen] = useState(false);
  const count = activeFilterCount(filters);
  return (
    <>
      <Button variant="secondary" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <Icon icon={SlidersHorizontal} className="size-4" />
        Filters
        {count > 0 && (
          <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-on-primary">
            {count}
            <span className="sr-only"> active</span>
          </span>
        )}
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title="Filters">
        <OrderFilters bare filters={filters} onChange={onChange} onClear={onClear} />
        <Button onClick={() => setOpen(false)}>Show orders</Button>
      </Dialog>
    </>
  );
}

const rangeText = (page: number, shown: number, total: number): string => {
  if (total === 0) return 'No orders';
  const first = (page - 1) * DASHBOARD_PAGE_SIZE + 1;
  return `Showing ${first}–${first + shown - 1} of ${total} ${total === 1 ? 'order' : 'orders'}`;
};

/**
 * SPEC §2 "/dashboard" and "Order list": filters in the address bar, 12 a page, grid or list, hide and
 * unhide at once. `category` is the site's first category (the list path needs one; it lists them all).
 */
interface OrdersDashboardProps {
  category: number;
  /** the Pay action of an unpaid order's card (the payment feature, composed by the route) */
  payAction?: (order: OrderListItem) => ReactNode;
}

export function OrdersDashboard({ category, payAction }: OrdersDashboardProps) {
  const { filters, setFilter, setPage, clear } = useDashboardFilters();
  const [view, setView] = useViewMode();
  const now = useNow();
  const wide = useWideScreen();
  const [feedbackFor, setFeedbackFor] = useState<number | null>(null);
  const list = useOrderList(category, filters);
  const hide = useSetOrderHidden({ onFailure: (error) => toast.error(errorMessage(error)) });

  const toggleHidden = (order: OrderListItem) => hide.mutate({ id: order.id, hidden: order.hidden !== 'YES' });
  const filtered = filters.status !== null || filters.q !== '' || filters.from !== '' || filters.to !== '';

  let body;
  if (list.isPending) {
    body = (
      <p className="flex items-center gap-2 text-slate-700" role="status">
        <Spinner /> Loading your orders…
      </p>
    );
  } else if (list.isError) {
    body = <Alert tone="error">{ORDER_MESSAGE.fetchListFailed}</Alert>;
  } else if (list.data.orders.length === 0 && filters.page > 1 && list.data.total > 0) {
    // A page that emptied (the last order on it was hidden): go back to the last page there is.
    body = (
      <Button variant="secondary" onClick={() => setPage(Math.ceil(list.data.total / DASHBOARD_PAGE_SIZE))}>
        Go to the last page
      </Button>
    );
  } else if (list.data.orders.length === 0) {
    body =
      filtered || filters.hidden ? (
        <EmptyState
          icon={ClipboardList}
          title={filters.hidden && !filtered ? 'You have no hidden orders' : 'No orders match these filters'}
          actions={
            <>
              <Button variant="secondary" onClick={clear}>
                Show all orders
              </Button>
              <Link to={paths.order} className={buttonClass('primary', 'no-underline')}>
                New Order
              </Link>
            </>
          }
        />
      ) : (
        <EmptyState
          icon={ClipboardList}
          title="You have no orders yet"
          actions={
            <Link to={paths.order} className={buttonClass('primary', 'no-underline')}>
              New Order
            </Link>
          }
        >
          <p>Place your first order and follow it here, from payment to the finished work.</p>
        </EmptyState>
      );
  } else {
    const pageCount = Math.ceil(list.data.total / DASHBOARD_PAGE_SIZE);
    body = (
      <>
        <ul
          aria-label="Orders"
          aria-busy={list.isPlaceholderData || undefined}
          data-view={view}
          className={
            view === 'grid'
              ? 'grid gap-4 sm:grid-cols-2 xl:grid-cols-3'
              : 'flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white shadow-sm'
          }
        >
          {list.data.orders.map((order) => (
            <li key={order.id}>
              <OrderCard
                order={order}
                view={view}
                now={now}
                busy={hide.isPending && hide.variables.id === order.id}
                onToggleHidden={toggleHidden}
                payAction={payAction}
                onLeaveFeedback={(item) => setFeedbackFor(item.id)}
              />
            </li>
          ))}
        </ul>
        <Pagination
          page={filters.page}
          pageCount={pageCount}
          pages={pageWindow(filters.page, pageCount)}
          onPageChange={setPage}
          label="Order pages"
        />
      </>
    );
  }

  return (
    <div className="flex flex-col gap-4">
      {wide && <OrderFilters filters={filters} onChange={setFilter} onClear={clear} />}
      <div className="flex flex-wrap items-center justify-between gap-3">
        {!wide && <FiltersSheet filters={filters} onChange={setFilter} onClear={clear} />}
        <p aria-live="polite" className="text-sm text-slate-700">
          {list.isSuccess ? rangeText(filters.page, list.data.orders.length, list.data.total) : ''}
          {filters.hidden && list.isSuccess ? ' (hidden orders)' : ''}
        </p>
        <ViewToggle mode={view} onChange={setView} />
      </div>
      {body}
      {feedbackFor !== null && (
        <Suspense fallback={null}>
          <FeedbackDialog orderId={feedbackFor} open onOpenChange={(open) => !open && setFeedbackFor(null)} />
        </Suspense>
      )}
    </div>
  );
}
