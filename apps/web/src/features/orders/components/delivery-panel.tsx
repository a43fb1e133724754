import { useId, useState } from 'react';
import { Link } from 'wouter';
import { CalendarClock, Download, FileText, PackageCheck } from 'lucide';
import type { OrderDetail } from '@app/domain/order';
import { ORDER_STATUS } from '@app/domain/order/rules';
import {
  AFTER_PAYMENT_MESSAGE,
  extensionLengthText,
  ORDER_EVENT_LABEL,
  reviewDaysLeft,
  REVIEW_EXTENSION_DAYS,
} from '@app/domain/delivery/rules';
import { formatFileSize } from '@app/domain/files/rules';
import type { OrderFile } from '@app/domain/files';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClass } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { dateTimeFormat, formatDateTime } from '@/lib/dates';
import { useNow } from '@/lib/use-now';
import { downloadOrderFile } from '../api/order-files';
import { useAfterPaymentAction } from '../api/after-payment';
import { AcceptDeliveryDialog, RequestChangesDialog } from './accept-delivery-dialog';

/** "Tue, 3 Mar, 14:00": a proposed deadline in the customer's own time zone (made on first use, ADR 0101). */
const deadlineFormat = () =>
  dateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });

function DeliveredFile({ file }: { file: OrderFile }) {
  const [busy, setBusy] = useState(false);
  return (
    <li className="flex flex-wrap items-center gap-3 py-2">
      <Icon icon={FileText} className="size-5 shrink-0 text-slate-500" />
      <span className="min-w-0 flex-1 break-all font-medium text-slate-900">{file.name}</span>
      <span className="text-sm text-slate-700 uppercase">{file.typeName}</span>
      <span className="w-16 text-right text-sm text-slate-700 tabular-nums">{formatFileSize(file.size)}</span>
      <Button
        variant="secondary"
        className="px-3!"
        busy={busy}
        aria-label={`Download ${file.name}`}
        onClick={() => {
          setBusy(true);
          downloadOrderFile(file)
            .catch((error: unknown) => toast.error(errorMessage(error)))
            .finally(() => setBusy(false));
        }}
      >
        <Icon icon={Download} className="size-4" />
        Download
      </Button>
    </li>
  );
}

/**
 * CONTRACT "After payment", ADR 0084: a proposed deadline with Accept / Decline / Talk to support.
 * Silence until answerBy is a decline, which the card says.
 */
export function ExtensionRequestCard({ order }: { order: OrderDetail }) {
  const request = order.extensionRequest;
  const action = useAfterPaymentAction(order.id);
  const headingId = useId();
  if (!request) return null;
  const who = request.proposedBy === 'writer' ? 'Your writer asks' : 'Support asks';
  const answer = (accept: boolean) =>
    action.mutate(
      { kind: 'answerExtension', extensionId: request.id, accept },
      { onSuccess: () => toast.success(accept ? AFTER_PAYMENT_MESSAGE.extensionAccepted : AFTER_PAYMENT_MESSAGE.extensionDeclined) },
    );
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h2 id={headingId} className="flex items-start gap-2 text-base font-semibold text-slate-900">
        <Icon icon={CalendarClock} className="mt-0.5 size-5 shrink-0" />
        <span>
          {who} for {extensionLengthText(new Date(request.currentDeadline), new Date(request.deadline))}: new deadline{' '}
          <time dateTime={request.deadline}>{deadlineFormat().format(new Date(request.deadline))}</time> (your time)
        </span>
      </h2>
      <p className="text-sm break-words text-slate-800">“{request.reason}”</p>
      <p className="text-sm text-slate-700">
        Answer by <time dateTime={request.answerBy}>{formatDateTime(request.answerBy)}</time>. Without an answer the current deadline (
        <time dateTime={request.currentDeadline}>{formatDateTime(request.currentDeadline)}</time>) stands.
      </p>
      {action.isError && <Alert tone="error">{errorMessage(action.error)}</Alert>}
      <div className="flex flex-wrap gap-2">
        <Button
          busy={action.isPending && action.variables.kind === 'answerExtension' && action.variables.accept}
          onClick={() => answer(true)}
        >
          Accept new deadline
        </Button>
        <Button
          variant="secondary"
          busy={action.isPending && action.variables.kind === 'answerExtension' && !action.variables.accept}
          onClick={() => answer(false)}
        >
          Decline
        </Button>
        <Link to={`${paths.orderInfo(order.id, 'messages')}?panel=support`} className={buttonClass('ghost', 'no-underline')}>
          Talk to support
        </Link>
      </div>
    </section>
  );
}

/**
 * CONTRACT "After payment", ADR 0084: the order page opens on the delivery: the files first (download,
 * size, type), the writer's message, and while it awaits review the banner "Review by {date} · {n} days
 * left" with Accept and Ask for changes (and, once, a few more days).
 */
export function DeliveryPanel({ order }: { order: OrderDetail }) {
  const now = useNow();
  const headingId = useId();
  const [accepting, setAccepting] = useState(false);
  const [changing, setChanging] = useState(false);
  const extend = useAfterPaymentAction(order.id);
  const delivery = order.delivery;
  if (!delivery) return null;
  const awaiting = delivery.state === 'awaiting_review' && order.status === ORDER_STATUS.inProgress && delivery.reviewBy !== null;
  const daysLeft = delivery.reviewBy ? reviewDaysLeft(new Date(delivery.reviewBy), new Date(now)) : 0;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <Icon icon={PackageCheck} className="size-5" />
          {delivery.number > 1 ? `Delivery ${delivery.number}` : 'Your delivery'}
        </h2>
        <span className="text-sm text-slate-700">
          Delivered <time dateTime={delivery.deliveredAt}>{formatDateTime(delivery.deliveredAt)}</time>
        </span>
      </div>
      {awaiting && delivery.reviewBy && (
        <div role="status" className="flex flex-col gap-3 rounded-md border border-primary/40 bg-primary/5 p-3">
          <p className="font-semibold text-slate-900">
            Review by <time dateTime={delivery.reviewBy}>{formatDateTime(delivery.reviewBy)}</time> (your time) · {daysLeft}{' '}
            {daysLeft === 1 ? 'day' : 'days'} left
          </p>
          <p className="text-sm text-slate-700">Without an answer by then, the order completes by itself.</p>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => setAccepting(true)}>Accept</Button>
            <Button variant="secondary" onClick={() => setChanging(true)}>
              Ask for changes
            </Button>
            {!delivery.reviewExtended && (
              <Button
                variant="ghost"
                busy={extend.isPending}
                onClick={() =>
                  extend.mutate({ kind: 'extendReview' }, { onSuccess: () => toast.success(AFTER_PAYMENT_MESSAGE.reviewExtended) })
                }
              >
                I need {REVIEW_EXTENSION_DAYS} more days
              </Button>
            )}
          </div>
          {extend.isError && <Alert tone="error">{errorMessage(extend.error)}</Alert>}
        </div>
      )}
      {delivery.state === 'changes_requested' && order.status === ORDER_STATUS.inProgress && (
        <Alert tone="info">You asked for changes. Your writer is working on them; the next delivery will show here.</Alert>
      )}
      {(delivery.state === 'accepted' || delivery.state === 'auto_completed') && (
        <p className="text-sm text-slate-700">
          {delivery.state === 'accepted' ? 'You accepted this delivery.' : 'The review time ended, so the order completed by itself.'}
        </p>
      )}
      <div className="flex flex-col gap-1">
        <h3 className="text-base font-semibold text-slate-900">Files</h3>
        {delivery.files.length === 0 ? (
          <p className="text-sm text-slate-700">The files of this delivery are no longer available.</p>
        ) : (
          <ul className="divide-y divide-slate-200">
            {delivery.files.map((file) => (
              <DeliveredFile key={file.id} file={file} />
            ))}
          </ul>
        )}
      </div>
      {delivery.message !== '' && (
        <div className="flex flex-col gap-1">
          <h3 className="text-base font-semibold text-slate-900">Message from your writer</h3>
          <p className="rounded-md bg-slate-50 p-3 text-sm break-words whitespace-pre-line text-slate-800">{delivery.message}</p>
        </div>
      )}
      {order.events.length > 0 && (
        <details className="text-sm">
          <summary className="cursor-pointer font-medium text-slate-800">Timeline</summary>
          <ol className="mt-2 flex flex-col gap-1">
            {order.events.map((event, index) => (
              <li key={`${event.date}-${index}`} className="text-slate-700">
                <time dateTime={event.date}>{formatDateTime(event.date)}</time> · {ORDER_EVENT_LABEL[event.type]}
                {event.deadline && event.type.startsWith('extension') && <> ({formatDateTime(event.deadline)})</>}
              </li>
            ))}
          </ol>
        </details>
      )}
      {accepting && <AcceptDeliveryDialog orderId={order.id} open={accepting} onOpenChange={setAccepting} />}
      {changing && <RequestChangesDialog orderId={order.id} open={changing} onOpenChange={setChanging} />}
    </section>
  );
}
