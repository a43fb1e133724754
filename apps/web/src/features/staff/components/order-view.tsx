import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ArrowLeft } from 'lucide';
import { orderStatusStyle } from '@app/domain/dashboard/rules';
import { Alert } from '@/components/ui/alert';
import { Icon } from '@/components/ui/icon';
import { PageHeading } from '@/components/ui/page-heading';
import { Spinner } from '@/components/ui/spinner';
import { StatusBadge } from '@/components/ui/status-badge';
import { paths } from '@/config/paths';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { useStaffOrder, type StaffOrder, type StaffOrderView } from '../api/orders';
import { AfterPaymentTimeline, ProposeDeadlineForm, SubmitDeliveryForm } from './after-payment-actions';
import { DeliverFile, WriterForm } from './order-actions';
import { OrderFiles } from './order-files';
import { ManualPaymentForm, StatusForm, StatusHistory } from './status-actions';

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="text-base font-semibold">{title}</h2>
      {children}
    </section>
  );
}

function Details({ order }: { order: StaffOrder }) {
  const rows: [string, ReactNode][] = [
    ['Title', order.title || 'Untitled order'],
    ['Work type', order.workType.name],
    ['Pages', order.pages],
    ['Deadline', formatDateTime(order.deadline)],
    ['Placed', formatDateTime(order.dateCreated)],
    ['Price', `$${order.finalPrice.toFixed(2)}`],
    ['Customer', `#${order.idCustomer}`],
    ['Writer', order.idWriter === null ? 'Not assigned' : `#${order.idWriter}`],
  ];
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
      {rows.map(([term, value]) => (
        <div key={term} className="contents">
          <dt className="text-slate-700">{term}</dt>
          <dd className="min-w-0 break-words font-medium text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

interface OrderViewProps {
  orderId: number;
  support: boolean;
  /** The order's chat panel, composed by the route. */
  chat: (order: StaffOrderView) => ReactNode;
}

/** ADR 0059, 0071 order view: details, support's status moves, payment and writer, files, delivery, the history, and the order's chat. */
export function OrderView({ orderId, support, chat }: OrderViewProps) {
  const order = useStaffOrder(orderId);
  const back = (
    <Link to={paths.staff} className="inline-flex items-center gap-1 text-sm font-medium">
      <Icon icon={ArrowLeft} className="size-4" /> Back to the queue
    </Link>
  );
  if (order.isPending) {
    return (
      <div className="flex items-center gap-2 text-sm" role="status">
        <Spinner /> Loading order…
      </div>
    );
  }
  if (order.isError) {
    const missing = order.error instanceof ApiError && order.error.status === 404;
    return (
      <div className="flex flex-col gap-4">
        {back}
        <PageHeading>Order #{orderId}</PageHeading>
        <Alert tone="error" title={missing ? 'Order not found' : 'The order could not be loaded'}>
          {missing ? 'It does not exist, or it is not assigned to you.' : errorMessage(order.error)}
        </Alert>
      </div>
    );
  }
  const o = order.data;
  return (
    <div className="flex flex-col gap-4">
      {back}
      <div className="flex flex-wrap items-center gap-3">
        <PageHeading>Order #{o.id}</PageHeading>
        <StatusBadge tone={orderStatusStyle(o.status)}>{o.orderStatus.name}</StatusBadge>
      </div>
      {/* Narrow: details, then the chat (staff's main work), then the actions; wide: the chat beside both. */}
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.4fr)] lg:grid-rows-[auto_1fr] lg:items-start">
        <Card title="Details">
          <Details order={o} />
        </Card>
        <div className="min-w-0 lg:col-start-2 lg:row-span-2 lg:row-start-1">{chat(o)}</div>
        <div className="flex flex-col gap-4">
          {support && (
            <>
              <Card title="Status">
                <StatusForm key={o.status} order={o} />
              </Card>
              {o.chargeDue !== null && (
                <Card title="Record a manual payment">
                  <ManualPaymentForm key={`${o.status}-${o.chargeDue}`} order={{ ...o, chargeDue: o.chargeDue }} />
                </Card>
              )}
              <Card title="Writer">
                <WriterForm key={o.idWriter ?? 0} order={o} />
              </Card>
            </>
          )}
          <Card title="Deliver a file">
            <DeliverFile orderId={o.id} />
          </Card>
          <Card title="Submit the delivery">
            <SubmitDeliveryForm order={o} />
          </Card>
          <Card title="Propose a new deadline">
            <ProposeDeadlineForm order={o} />
          </Card>
          <Card title="Deliveries and deadlines">
            <AfterPaymentTimeline order={o} />
          </Card>
          <Card title="Files">
            <OrderFiles orderId={o.id} />
          </Card>
          <Card title="Status history">
            <StatusHistory order={o} />
          </Card>
        </div>
      </div>
    </div>
  );
}
