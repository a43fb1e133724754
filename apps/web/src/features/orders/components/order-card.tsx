import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { CalendarClock, Eye, EyeOff, MessageSquareText, PackageCheck } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { amountToCents, formatUsd } from '@app/domain/money';
import { orderStatusStyle } from '@app/domain/dashboard/rules';
import { ORDER_STATUS } from '@app/domain/order/rules';
import { siteCategoryName } from '@app/domain/settings/rules';
import type { OrderListItem } from '@app/domain/order-list';
import { Button, buttonClass } from '@/components/ui/button';
import { STATUS_STYLE_CLASS, StatusBadge } from '@/components/ui/status-badge';
import { paths } from '@/config/paths';
import { useUnreadTotal } from '@/lib/chat/unread-queries';
import { formatDateTime, formatTimeLeft } from '@/lib/dates';
import type { ViewMode } from '../hooks/use-view-mode';

interface OrderCardProps {
  order: OrderListItem;
  view: ViewMode;
  now: number;
  busy: boolean;
  onToggleHidden: (order: OrderListItem) => void;
  /** the Pay action of an unpaid order (the payment feature, composed by the route) */
  payAction?: (order: OrderListItem) => ReactNode;
}

/** SPEC §5: a resume order has no title; it is named after its service. */
export const orderTitle = (order: { title: string; siteCategory: number; workType: { name: string } }): string =>
  order.title.trim() !== '' ? order.title : `${siteCategoryName(order.siteCategory)} · ${order.workType.name}`;

/** One order of the dashboard, as a card (grid) or a row (list). */
export function OrderCard({ order, view, now, busy, onToggleHidden, payAction }: OrderCardProps) {
  const style = orderStatusStyle(order.status);
  const hidden = order.hidden === 'YES';
  const titleId = `order-${order.id}-title`;
  const list = view === 'list';
  // The chat resource's count, live (event 5, reads); the list's own until that summary is loaded.
  const unread = useUnreadTotal(order.id) ?? order.unread;
  return (
    <article
      aria-labelledby={titleId}
      className={`flex h-full gap-3 rounded-lg border border-l-4 border-slate-200 bg-white p-4 shadow-sm ${STATUS_STYLE_CLASS[style].accent} ${
        list ? 'flex-col lg:flex-row lg:items-center lg:gap-6' : 'flex-col'
      }`}
    >
      <div className={`flex min-w-0 flex-col gap-1 ${list ? 'lg:flex-1' : ''}`}>
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm font-medium text-slate-700">#{order.id}</span>
          <StatusBadge tone={style}>{order.orderStatus.name}</StatusBadge>
          {unread > 0 && (
            <span className="inline-flex items-center gap-1 rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-on-primary">
              <Icon icon={MessageSquareText} className="size-3.5" />
              {unread}
              <span className="sr-only"> unread {unread === 1 ? 'message' : 'messages'}</span>
            </span>
          )}
        </div>
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          <Link to={paths.orderInfo(order.id)} className="text-slate-900 underline-offset-2 hover:underline">
            <span className="sr-only">Order #{order.id}: </span>
            <span className="line-clamp-2 break-words">{orderTitle(order)}</span>
          </Link>
        </h2>
        <p className="text-sm text-slate-700">
          {order.workType.name} · {order.pages} {order.pages === 1 ? 'page' : 'pages'}
        </p>
      </div>
      <div className={`flex flex-col gap-0.5 text-sm ${list ? 'lg:w-56' : ''}`}>
        <span className="flex items-center gap-1.5 text-slate-700">
          <Icon icon={CalendarClock} className="size-4" />
          <span className="sr-only">Deadline: </span>
          <time dateTime={order.deadline}>{formatDateTime(order.deadline)}</time>
        </span>
        {order.reviewBy !== null ? (
          <span className="pl-5.5 font-medium text-slate-800">Delivered: review by {formatDateTime(order.reviewBy)}</span>
        ) : (
          <span className="pl-5.5 text-slate-700">{formatTimeLeft(order.deadline, now)}</span>
        )}
      </div>
      <div className={`mt-auto flex flex-wrap items-center justify-between gap-3 ${list ? 'lg:mt-0 lg:w-auto lg:min-w-52' : ''}`}>
        <span className="text-lg font-semibold text-slate-900">
          <span className="sr-only">Price: </span>
          {formatUsd(amountToCents(order.finalPrice))}
        </span>
        <div className="flex flex-wrap items-center gap-2">
          {/* SPEC §4 "Payment flow" from an unpaid order's card (ADR 0023) */}
          {payAction && order.status === ORDER_STATUS.unpaid && payAction(order)}
          {/* ADR 0084: a delivery waits for the customer's answer */}
          {order.reviewBy !== null && (
            <Link
              to={paths.orderInfo(order.id)}
              className={buttonClass('primary', 'no-underline')}
              aria-label={`Review delivery of order #${order.id}`}
            >
              <Icon icon={PackageCheck} className="size-4" />
              Review delivery
            </Link>
          )}
          <Button
            variant="secondary"
            className="px-3!"
            busy={busy}
            aria-label={`${hidden ? 'Unhide' : 'Hide'} order #${order.id}`}
            onClick={() => onToggleHidden(order)}
          >
            {hidden ? <Icon icon={Eye} className="size-4" /> : <Icon icon={EyeOff} className="size-4" />}
            {hidden ? 'Unhide' : 'Hide'}
          </Button>
        </div>
      </div>
    </article>
  );
}
