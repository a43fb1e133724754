import { useCallback, useId } from 'react';
import { Link, useSearchParams } from 'wouter';
import { ClipboardList } from 'lucide';
import { ORDER_STATUS_NAME } from '@app/domain/order/rules';
import { orderStatusStyle, pageWindow } from '@app/domain/dashboard/rules';
import { Alert } from '@/components/ui/alert';
import { EmptyState } from '@/components/ui/empty-state';
import { inputClass } from '@/components/ui/input';
import { Pagination } from '@/components/ui/pagination';
import { Spinner } from '@/components/ui/spinner';
import { StatusBadge } from '@/components/ui/status-badge';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/dates';
import { errorMessage } from '@/lib/api-client';
import { STAFF_QUEUE_PAGE_SIZE, useStaffQueue } from '../api/orders';
import { useAllUnread } from '@/lib/chat/unread-queries';

const STATUS_IDS = Object.keys(ORDER_STATUS_NAME).map(Number);

/** The queue's filter and page live in the address bar, so back, reload and a shared link keep them. */
const useQueueParams = () => {
  const [params, setParams] = useSearchParams();
  const rawStatus = Number(params.get('status'));
  const status = STATUS_IDS.includes(rawStatus) ? rawStatus : null;
  const rawPage = Number(params.get('page'));
  const page = Number.isSafeInteger(rawPage) && rawPage >= 1 ? rawPage : 1;
  const set = useCallback(
    (next: { status?: number | null; page?: number }) =>
      setParams((current) => {
        const out = new URLSearchParams(current);
        if (next.status !== undefined) {
          if (next.status === null) out.delete('status');
          else out.set('status', String(next.status));
          out.delete('page');
        }
        if (next.page !== undefined) {
          if (next.page <= 1) out.delete('page');
          else out.set('page', String(next.page));
        }
        return out;
      }),
    [setParams],
  );
  return { status, page, set };
};

/** CONTRACT "Staff side" orders queue: support sees every order, a writer the ones assigned to them. */
export function OrdersQueue({ support }: { support: boolean }) {
  const { status, page, set } = useQueueParams();
  const queue = useStaffQueue(status, page);
  const unread = useAllUnread('staff');
  const unreadOf = (orderId: number) => unread.data?.orders.find((o) => o.orderId === orderId)?.total ?? 0;
  const filterId = useId();
  const total = queue.data?.total ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / STAFF_QUEUE_PAGE_SIZE));

  return (
    <section aria-labelledby={`${filterId}-title`} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p id={`${filterId}-title`} className="text-sm text-slate-700">
          {support ? 'Every order, newest first.' : 'The orders assigned to you, newest first.'}
          {queue.data && ` ${total} ${total === 1 ? 'order' : 'orders'}.`}
        </p>
        <div className="flex flex-col gap-1">
          <label htmlFor={filterId} className="text-sm font-medium text-slate-800">
            Status
          </label>
          <select
            id={filterId}
            className={`${inputClass} w-48`}
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
      </div>

      {queue.isPending ? (
        <div className="flex items-center gap-2 text-sm text-slate-700" role="status">
          <Spinner /> Loading orders…
        </div>
      ) : queue.isError ? (
        <Alert tone="error" title="The queue could not be loaded">
          {errorMessage(queue.error)}
        </Alert>
      ) : queue.data.orders.length === 0 ? (
        <EmptyState icon={ClipboardList} title={status === null ? 'No orders yet' : 'No orders in this status'} />
      ) : (
        <ul aria-label="Orders" aria-busy={queue.isPlaceholderData || undefined} className="flex flex-col gap-2">
          {queue.data.orders.map((order) => (
            <li key={order.id}>
              <Link
                to={paths.staffOrder(order.id)}
                className="grid gap-x-4 gap-y-1 rounded-lg border border-slate-200 bg-white p-4 text-slate-900 no-underline shadow-sm hover:border-slate-400 focus-visible:outline-2 lg:grid-cols-[6rem_1fr_12rem_11rem_7rem] lg:items-center"
              >
                <span className="font-semibold">#{order.id}</span>
                <span className="min-w-0">
                  <span className="block truncate font-medium">{order.title || 'Untitled order'}</span>
                  <span className="block text-sm text-slate-700">
                    {order.workType.name} · {order.pages} {order.pages === 1 ? 'page' : 'pages'}
                    {order.idWriter === null ? ' · no writer' : ` · writer #${order.idWriter}`}
                  </span>
                </span>
                <span className="flex flex-wrap items-center gap-2">
                  <StatusBadge tone={orderStatusStyle(order.status)}>{order.orderStatus.name}</StatusBadge>
                  {unreadOf(order.id) > 0 && (
                    <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-white">
                      {unreadOf(order.id)} unread
                    </span>
                  )}
                </span>
                <span className="text-sm text-slate-700">Due {formatDateTime(order.deadline)}</span>
                <span className="text-sm font-medium tabular-nums lg:text-right">${order.finalPrice.toFixed(2)}</span>
              </Link>
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
