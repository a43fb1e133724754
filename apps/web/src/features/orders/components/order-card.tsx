import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { CalendarClock, Eye, EyeOff, Info, MessageSquareText, PackageCheck, RotateCcw, Star } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { amountToCents, formatUsd } from '@app/domain/money';
import { orderCardActions, orderStatusHint, orderStatusStyle } from '@app/domain/dashboard/rules';
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
  payAction?: ((order: OrderListItem) => ReactNode) | undefined;
  /** issue 27: the card's Leave feedback opens the feedback dialog in place */
  onLeaveFeedback?: ((order: OrderListItem) => void) | undefined;
}

/** SPEC §5: a resume order has no title; it is named after its service. */
export const orderTitle = (order: { title: string; siteCategory: number; workType: { name: string } }): string =>
  order.title.trim() !== '' ? order.title : `${siteCategoryName(order.siteCategory)} · ${order.workType.name}`;

/** Issue 27: the action the order's state needs, decided by the domain (orderCardActions). */
function CardActions({ order, now, payAction, onLeaveFeedback }: Pick<OrderCardProps, 'order' | 'now' | 'payAction' | 'onLeaveFeedback'>) {
  const actions = orderCardActions(order, new Date(now));
  return actions.map((action) => {
    switch (action) {
      // SPEC §4 "Payment flow" from an unpaid order's card (ADR 0023)
      case 'pay':
        return payAction ? <span key={action}>{payAction(order)}</span> : null;
      // ADR 0084: a delivery waits for the customer's answer
      case 'reviewDelivery':
        return (
          <Link
            key={action}
            to={paths.orderInfo(order.id)}
            className={buttonClass('primary', 'no-underline')}
            aria-label={`Review delivery of order #${order.id}`}
          >
            <Icon icon={PackageCheck} className="size-4" />
            Review delivery
          </Link>
        );
      case 'requestRevision':
        return (
          <Link
            key={action}
            to={paths.orderInfo(order.id, 'revisions')}
            className={buttonClass('secondary', 'no-underline')}
            aria-label={`Request revision of order #${order.id}`}
          >
            <Icon icon={RotateCcw} className="size-4" />
            Request revision
          </Link>
        );
      case 'leaveFeedback':
        return onLeaveFeedback ? (
          <Button
            key={action}
            variant="secondary"
            aria-label={`Leave feedback on order #${order.id}`}
            onClick={() => onLeaveFeedback(order)}
          >
            <Icon icon={Star} className="size-4" />
            Leave feedback
          </Button>
        ) : null;
      default:
        return null;
    }
  });
}

/** Issue 27: "Offered" and "Hold" say what the customer should do (one line, the same on the order page). */
export function StatusHint({ status, className = '' }: { status: number; className?: string }) {
  const hint = orderStatusHint(status);
  if (hint === null) return null;
  return (
    <p className={`flex items-start gap-1.5 text-sm text-slate-800 ${className}`}>
      <Icon icon={Info} className="mt-0.5 size-4 shrink-0" />
      <span>{hint}</span>
    </p>
  );
}

/**
 * One order of the dashboard. Grid: a card with the work, the deadline and the actions stacked. List
 * (issue 27): a compact row, one line on a desktop, two on a phone, the actions at its end.
 */
export function OrderCard({ order, view, now, busy, onToggleHidden, payAction, onLeaveFeedback }: OrderCardProps) {
  const style = orderStatusStyle(order.status);
  const hidden = order.hidden === 'YES';
  const titleId = `order-${order.id}-title`;
  // The chat resource's count, live (event 5, reads); the list's own until that summary is loaded.
  const unread = useUnreadTotal(order.id) ?? order.unread;
  const unreadPill = unread > 0 && (
    <span className="inline-flex items-center gap-1 rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-on-primary">
      <Icon icon={MessageSquareText} className="size-3.5" />
      {unread}
      <span className="sr-only"> unread {unread === 1 ? 'message' : 'messages'}</span>
    </span>
  );
  const titleLink = (
    <Link to={paths.orderInfo(order.id)} className="text-slate-900 underline-offset-2 hover:underline">
      <span className="sr-only">Order #{order.id}: </span>
      <span className={view === 'list' ? 'break-words' : 'line-clamp-2 break-words'}>{orderTitle(order)}</span>
    </Link>
  );
  const price = (
    <span className={`font-semibold text-slate-900 ${view === 'list' ? 'text-base' : 'text-lg'}`}>
      <span className="sr-only">Price: </span>
      {formatUsd(amountToCents(order.finalPrice))}
    </span>
  );
  const hideButton = (
    <Button
      variant="secondary"
      className="px-3!"
      busy={busy}
      aria-label={`${hidden ? 'Unhide' : 'Hide'} order #${order.id}`}
      onClick={() => onToggleHidden(order)}
    >
      {hidden ? <Icon icon={Eye} className="size-4" /> : <Icon icon={EyeOff} className="size-4" />}
      <span className={view === 'list' ? 'max-sm:sr-only' : ''}>{hidden ? 'Unhide' : 'Hide'}</span>
    </Button>
  );
  const actions = <CardActions order={order} now={now} payAction={payAction} onLeaveFeedback={onLeaveFeedback} />;

  if (view === 'list') {
    return (
      <article
        aria-labelledby={titleId}
        data-view="list"
        className={`flex flex-wrap items-center gap-x-4 gap-y-2 border-l-4 bg-white px-3 py-2 ${STATUS_STYLE_CLASS[style].accent}`}
      >
        <div className="flex min-w-0 flex-[1_1_16rem] flex-col gap-0.5">
          <div className="flex min-w-0 items-center gap-2">
            <span className="shrink-0 text-sm font-medium text-slate-700">#{order.id}</span>
            <StatusBadge tone={style}>{order.orderStatus.name}</StatusBadge>
            {unreadPill}
          </div>
          <h2 id={titleId} className="text-sm font-semibold text-slate-900">
            {titleLink}
          </h2>
          <StatusHint status={order.status} className="text-xs" />
        </div>
        <span className="flex items-center gap-1.5 text-sm text-slate-700">
          <Icon icon={CalendarClock} className="size-4" />
          <span className="sr-only">Deadline: </span>
          <time dateTime={order.deadline}>{formatDateTime(order.deadline)}</time>
        </span>
        {price}
        <div className="ml-auto flex flex-wrap items-center gap-2">
          {actions}
          {hideButton}
        </div>
      </article>
    );
  }

  return (
    <article
      aria-labelledby={titleId}
      data-view="grid"
      className={`flex h-full flex-col gap-3 rounded-lg border border-l-4 border-slate-200 bg-white p-4 shadow-sm ${STATUS_STYLE_CLASS[style].accent}`}
    >
      <div className="flex min-w-0 flex-col gap-1">
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-sm font-medium text-slate-700">#{order.id}</span>
          <StatusBadge tone={style}>{order.orderStatus.name}</StatusBadge>
          {unreadPill}
        </div>
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          {titleLink}
        </h2>
        <p className="text-sm text-slate-700">
          {order.workType.name} · {order.pages} {order.pages === 1 ? 'page' : 'pages'}
        </p>
      </div>
      <StatusHint status={order.status} />
      <div className="flex flex-col gap-0.5 text-sm">
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
      <div className="mt-auto flex flex-wrap items-center justify-between gap-3">
        {price}
        <div className="flex flex-wrap items-center gap-2">
          {actions}
          {hideButton}
        </div>
      </div>
    </article>
  );
}
