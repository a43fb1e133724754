import { useCallback, useId, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'wouter';
import { ClipboardList } from 'lucide';
import { ORDER_STATUS_NAME } from '@app/domain/order/rules';
import { orderStatusStyle, pageWindow } from '@app/domain/dashboard/rules';
import { STAFF_VIEW_META, STAFF_VIEWS, staffViewTone, type StaffQueueSort, type StaffView } from '@app/domain/staff/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { inputClass } from '@/components/ui/input';
import { Pagination } from '@/components/ui/pagination';
import { Spinner } from '@/components/ui/spinner';
import { StatusBadge } from '@/components/ui/status-badge';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/dates';
import { errorMessage } from '@/lib/api-client';
import { STAFF_QUEUE_PAGE_SIZE, useStaffQueue, useStaffViews, type StaffOrder } from '../api/orders';
import { useAllUnread } from '@/lib/chat/unread-queries';

const STATUS_IDS = Object.keys(ORDER_STATUS_NAME).map(Number);
/** ADR 0089: a writer's tiles are of their own orders. */
const WRITER_VIEWS: readonly StaffView[] = ['overdue', 'dueSoon', 'revisionsDue', 'extensionRequests'];

/** A tile's timer colour: quiet when empty, its view's tone otherwise (text contrast AA on each). */
const TONE_CLASS = {
  neutral: 'border-slate-200 bg-white text-slate-900',
  danger: 'border-red-300 bg-red-50 text-red-900',
  warning: 'border-amber-300 bg-amber-50 text-amber-900',
  info: 'border-sky-300 bg-sky-50 text-sky-900',
} as const;

/** The queue's filter, view, search, sort and page live in the address bar, so back, reload and a shared link keep them. */
const useQueueParams = (support: boolean) => {
  const [params, setParams] = useSearchParams();
  const rawStatus = Number(params.get('status'));
  const status = STATUS_IDS.includes(rawStatus) ? rawStatus : null;
  const rawView = params.get('view');
  const view = (STAFF_VIEWS as readonly string[]).includes(rawView ?? '') ? (rawView as StaffView) : null;
  const q = params.get('q') ?? '';
  const rawSort = params.get('sort');
  // A writer's "my orders" is by what is due next unless asked otherwise.
  const sort: StaffQueueSort = rawSort === 'newest' || rawSort === 'deadline' ? rawSort : support ? 'newest' : 'deadline';
  const rawPage = Number(params.get('page'));
  const page = Number.isSafeInteger(rawPage) && rawPage >= 1 ? rawPage : 1;
  const set = useCallback(
    (next: { status?: number | null; view?: StaffView | null; q?: string; sort?: StaffQueueSort; page?: number }) =>
      setParams((current) => {
        const out = new URLSearchParams(current);
        const put = (name: string, value: string | null) => (value === null || value === '' ? out.delete(name) : out.set(name, value));
        if (next.status !== undefined) put('status', next.status === null ? null : String(next.status));
        if (next.view !== undefined) put('view', next.view);
        if (next.q !== undefined) put('q', next.q.trim());
        if (next.sort !== undefined) put('sort', next.sort);
        if (next.page !== undefined) put('page', next.page <= 1 ? null : String(next.page));
        else out.delete('page');
        return out;
      }),
    [setParams],
  );
  return { status, view, q, sort, page, set };
};

/** ADR 0089: support's views as tiles, each with its count and a timer colour; choosing one lists its orders. */
function ViewTiles({
  support,
  active,
  onChoose,
}: {
  support: boolean;
  active: StaffView | null;
  onChoose: (view: StaffView | null) => void;
}) {
  const counts = useStaffViews();
  const views = support ? STAFF_VIEWS : WRITER_VIEWS;
  return (
    <nav aria-label="Views">
      <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3 lg:grid-cols-5">
        {views.map((view) => {
          const count = counts.data?.views.find((v) => v.view === view)?.count;
          const tone = count === null || count === undefined ? 'neutral' : staffViewTone(view, count);
          const meta = STAFF_VIEW_META[view];
          const pressed = active === view;
          return (
            <li key={view}>
              <button
                type="button"
                aria-pressed={pressed}
                title={meta.hint}
                onClick={() => onChoose(pressed ? null : view)}
                className={`flex h-full w-full flex-col items-start gap-1 rounded-lg border p-3 text-left shadow-sm focus-visible:outline-2 ${TONE_CLASS[tone]} ${pressed ? 'ring-2 ring-slate-900' : 'hover:border-slate-500'}`}
              >
                <span className="text-sm font-medium">{meta.label}</span>
                <span className="text-2xl font-semibold tabular-nums">
                  {counts.isPending ? '…' : count === null || count === undefined ? '—' : count}
                </span>
                {count === null && <span className="text-xs">Not counted yet</span>}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

function QueueRow({ order, support, unread }: { order: StaffOrder; support: boolean; unread: number }) {
  return (
    <Link
      to={paths.staffOrder(order.id)}
      className="grid gap-x-4 gap-y-1 rounded-lg border border-slate-200 bg-white p-4 text-slate-900 no-underline shadow-sm hover:border-slate-400 focus-visible:outline-2 lg:grid-cols-[5rem_minmax(0,1fr)_12rem_12rem_7rem] lg:items-center"
    >
      <span className="font-semibold">#{order.id}</span>
      <span className="min-w-0">
        <span className="block font-medium break-words">{order.title || 'Untitled order'}</span>
        <span className="block text-sm break-words text-slate-700">
          {order.workType.name} · {order.pages} {order.pages === 1 ? 'page' : 'pages'} · {order.customerName}
          {support && order.customerEmail ? ` (${order.customerEmail})` : ''}
          {support && (order.writerName === null ? ' · no writer' : ` · ${order.writerName}`)}
        </span>
      </span>
      <span className="flex flex-wrap items-center gap-2">
        <StatusBadge tone={orderStatusStyle(order.status)}>{order.orderStatus.name}</StatusBadge>
        {unread > 0 && (
          <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-white">{unread} unread</span>
        )}
        {order.openRevision && (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-amber-900">
            Revision open
          </span>
        )}
      </span>
      <span className="text-sm text-slate-700">
        Due {formatDateTime(support ? order.deadline : order.writerDeadline)}
        {!support && <span className="block text-xs">Customer’s: {formatDateTime(order.deadline)}</span>}
      </span>
      <span className="text-sm font-medium tabular-nums lg:text-right">
        {support && order.finalPrice !== null ? `$${order.finalPrice.toFixed(2)}` : `Pay $${order.pay.toFixed(2)}`}
      </span>
    </Link>
  );
}

/** CONTRACT "Staff side" orders queue, ADR 0089: views, search, sort; support sees every order, a writer theirs. */
export function OrdersQueue({ support }: { support: boolean }) {
  const { status, view, q, sort, page, set } = useQueueParams(support);
  const queue = useStaffQueue({ status, view, q, sort, page });
  const unread = useAllUnread('staff');
  const unreadOf = (orderId: number) => unread.data?.orders.find((o) => o.orderId === orderId)?.total ?? 0;
  const filterId = useId();
  const [search, setSearch] = useState(q);
  const total = queue.data?.total ?? 0;
  const capped = queue.data?.totalCapped ?? false;
  const pageCount = Math.max(1, Math.ceil(total / STAFF_QUEUE_PAGE_SIZE));
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    set({ q: search });
  };
  const what = view === null ? (support ? 'Every order' : 'The orders assigned to you') : STAFF_VIEW_META[view].label;

  return (
    <section aria-labelledby={`${filterId}-title`} className="flex flex-col gap-4">
      <ViewTiles support={support} active={view} onChoose={(next) => set({ view: next })} />
      <div className="flex flex-wrap items-end gap-3">
        {support && (
          <form role="search" onSubmit={onSearch} className="flex min-w-0 flex-1 flex-wrap items-end gap-2">
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <label htmlFor={`${filterId}-q`} className="text-sm font-medium text-slate-800">
                Search
              </label>
              <input
                id={`${filterId}-q`}
                type="search"
                className={`${inputClass} min-w-0`}
                placeholder="Title, order number or customer email"
                value={search}
                maxLength={250}
                onChange={(event) => setSearch(event.target.value)}
              />
            </div>
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </form>
        )}
        <div className="flex flex-col gap-1">
          <label htmlFor={`${filterId}-status`} className="text-sm font-medium text-slate-800">
            Status
          </label>
          <select
            id={`${filterId}-status`}
            className={`${inputClass} w-44`}
            value={status ?? ''}
            onChange={(event) => set({ status: event.target.value === '' ? null : Number(event.target.value) })}
          >
            <option value="">All statuses</option>
            {STATUS_IDS.map((id) => (
              <option key={id} value={id}>
                {ORDER_STATUS_NAME[id as keyof typeof ORDER_STATUS_NAME]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${filterId}-sort`} className="text-sm font-medium text-slate-800">
            Order by
          </label>
          <select
            id={`${filterId}-sort`}
            className={`${inputClass} w-44`}
            value={sort}
            onChange={(event) => set({ sort: event.target.value as StaffQueueSort })}
          >
            <option value="newest">Newest first</option>
            <option value="deadline">Deadline, soonest first</option>
          </select>
        </div>
      </div>
      <p id={`${filterId}-title`} className="text-sm text-slate-700" aria-live="polite">
        {what}
        {q !== '' && ` matching “${q}”`}
        {queue.data &&
          (capped
            ? `: more than ${total.toLocaleString('en-US')} orders. Add a word to narrow the search.`
            : `: ${total} ${total === 1 ? 'order' : 'orders'}.`)}
      </p>

      {queue.isPending ? (
        <div className="flex items-center gap-2 text-sm text-slate-700" role="status">
          <Spinner /> Loading orders…
        </div>
      ) : queue.isError ? (
        <Alert tone="error" title="The queue could not be loaded">
          {errorMessage(queue.error)}
        </Alert>
      ) : queue.data.orders.length === 0 ? (
        <EmptyState icon={ClipboardList} title={status === null && view === null && q === '' ? 'No orders yet' : 'No orders match'} />
      ) : (
        <ul aria-label="Orders" aria-busy={queue.isPlaceholderData || undefined} className="flex flex-col gap-2">
          {queue.data.orders.map((order) => (
            <li key={order.id}>
              <QueueRow order={order} support={support} unread={unreadOf(order.id)} />
            </li>
          ))}
        </ul>
      )}

      <Pagination
        label="Queue pages"
        page={page}
        pageCount={pageCount}
        pages={pageWindow(page, pageCount)}
        onPageChange={(next) => set({ page: next })}
      />
    </section>
  );
}
