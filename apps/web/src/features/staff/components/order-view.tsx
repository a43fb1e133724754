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
import { useStaffOrder, type StaffOrderView } from '../api/orders';
import { CustomerCard, OrderBrief, Terms } from './order-brief';
import { OrderRevisions } from './order-revisions';
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

/** The order at a glance: for support the customer's price and deadline; for a writer the pay and the writer's deadline. */
function Details({ order, support }: { order: StaffOrderView; support: boolean }) {
  return (
    <Terms
      rows={[
        ['Placed', formatDateTime(order.dateCreated)],
        [support ? 'Deadline' : 'Your deadline', formatDateTime(support ? order.deadline : order.writerDeadline)],
        [support ? 'Writer’s deadline' : 'Customer’s deadline', formatDateTime(support ? order.writerDeadline : order.deadline)],
        ['Price', support && order.finalPrice !== null ? `$${order.finalPrice.toFixed(2)}` : null],
        [support ? 'Writer’s pay' : 'Your pay', `$${order.pay.toFixed(2)}`],
        ['Customer', order.customerName],
        ['Writer', support ? (order.writerName ?? 'Not assigned') : null],
      ]}
    />
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
        <div className="flex min-w-0 flex-col gap-4">
          <Card title="Details">
            <Details order={o} support={support} />
          </Card>
          <Card title="Brief">
            <OrderBrief order={o} />
          </Card>
        </div>
        <div className="min-w-0 lg:col-start-2 lg:row-span-2 lg:row-start-1">{chat(o)}</div>
        <div className="flex min-w-0 flex-col gap-4">
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
              <Card title="Customer">
                <CustomerCard order={o} />
              </Card>
            </>
          )}
          <Card title="Revisions">
            <OrderRevisions orderId={o.id} support={support} />
          </Card>
          <Card title="Deliver files">
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
          <Card title="All files">
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
