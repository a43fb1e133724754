import { useId, useState, type FormEvent } from 'react';
import { AFTER_PAYMENT_MESSAGE, EXTENSION_STATUSES, ORDER_EVENT_LABEL } from '@app/domain/delivery/rules';
import { ORDER_STATUS } from '@app/domain/order/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, inputClass } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { useProposeDeadline, useSubmitDelivery, type StaffOrderView } from '../api/orders';

const DELIVERY_STATE: Record<NonNullable<StaffOrderView['delivery']>['state'], string> = {
  awaiting_review: 'waiting for the customer’s review',
  changes_requested: 'the customer asked for changes',
  accepted: 'accepted by the customer',
  auto_completed: 'completed when the review time ended',
};

/**
 * ADR 0084: the writer (or support) submits the files uploaded since the last delivery with a message; the
 * customer's review clock starts. The server refuses a delivery with no new files.
 */
export function SubmitDeliveryForm({ order }: { order: StaffOrderView }) {
  const id = useId();
  const [message, setMessage] = useState('');
  const submit = useSubmitDelivery(order.id);
  const latest = order.delivery;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit.mutate(message.trim(), {
      onSuccess: () => {
        toast.success('Delivery submitted: the customer was told');
        setMessage('');
      },
    });
  };
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3" aria-label="Submit the delivery" noValidate>
      {latest ? (
        <p className="text-sm text-slate-700">
          Delivery {latest.number} on {formatDateTime(latest.deliveredAt)}: {DELIVERY_STATE[latest.state]}
          {latest.reviewBy && <> (review by {formatDateTime(latest.reviewBy)})</>}.
        </p>
      ) : (
        <p className="text-sm text-slate-700">Upload the files above, then submit them as the delivery.</p>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-message`} className="text-sm font-medium text-slate-800">
          Message to the customer (optional)
        </label>
        <textarea
          id={`${id}-message`}
          className={`${inputClass} min-h-24`}
          maxLength={5000}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
      </div>
      {submit.isError && <Alert tone="error">{errorMessage(submit.error)}</Alert>}
      <Button type="submit" busy={submit.isPending} disabled={order.status !== ORDER_STATUS.inProgress}>
        Submit delivery
      </Button>
    </form>
  );
}

/** A `datetime-local` value (the staff member's own time) for `iso`. */
const localInputValue = (iso: string): string => {
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

/** ADR 0084: propose a later deadline with a reason; the customer accepts or declines it before its answer time. */
export function ProposeDeadlineForm({ order }: { order: StaffOrderView }) {
  const [deadline, setDeadline] = useState(() =>
    localInputValue(new Date(new Date(order.deadline).getTime() + 24 * 3_600_000).toISOString()),
  );
  const [reason, setReason] = useState('');
  const [localError, setLocalError] = useState<{ deadline?: string; reason?: string }>({});
  const propose = useProposeDeadline(order.id);
  const fieldErrors = propose.error instanceof ApiError ? propose.error.fieldErrors : {};
  const open = order.extensionRequest;
  if (!EXTENSION_STATUSES.includes(order.status))
    return <p className="text-sm text-slate-700">{AFTER_PAYMENT_MESSAGE.extensionNotAllowed}</p>;
  if (open)
    return (
      <p className="text-sm text-slate-700">
        Proposed: {formatDateTime(open.deadline)} (now {formatDateTime(open.currentDeadline)}). The customer answers by{' '}
        {formatDateTime(open.answerBy)}.
      </p>
    );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const when = new Date(deadline);
    const errors = {
      ...(Number.isNaN(when.getTime()) ? { deadline: AFTER_PAYMENT_MESSAGE.deadlineInvalid } : {}),
      ...(reason.trim() === '' ? { reason: AFTER_PAYMENT_MESSAGE.reasonRequired } : {}),
    };
    setLocalError(errors);
    if (errors.deadline || errors.reason) return;
    propose.mutate(
      { deadline: when.toISOString(), reason: reason.trim() },
      { onSuccess: () => toast.success('New deadline proposed to the customer') },
    );
  };
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3" aria-label="Propose a new deadline" noValidate>
      <p className="text-sm text-slate-700">Current deadline: {formatDateTime(order.deadline)}</p>
      <Field label="New deadline (your time)" error={localError.deadline ?? fieldErrors.deadline?.[0]}>
        {(control) => <Input {...control} type="datetime-local" value={deadline} onChange={(e) => setDeadline(e.target.value)} />}
      </Field>
      <Field label="Reason" error={localError.reason ?? fieldErrors.reason?.[0]}>
        {(control) => <Input {...control} maxLength={1000} value={reason} onChange={(e) => setReason(e.target.value)} />}
      </Field>
      {propose.isError && Object.keys(fieldErrors).length === 0 && <Alert tone="error">{errorMessage(propose.error)}</Alert>}
      <Button type="submit" variant="secondary" busy={propose.isPending}>
        Propose a new deadline
      </Button>
    </form>
  );
}

/** ADR 0084: the order's timeline (deliveries, answers, proposals) and support's alert of an unanswered proposal. */
export function AfterPaymentTimeline({ order }: { order: StaffOrderView }) {
  return (
    <div className="flex flex-col gap-2">
      {order.extensionAlert && (
        <Alert tone="warning" title="The customer did not answer the proposed deadline">
          {`Proposed ${formatDateTime(order.extensionAlert.deadline)}; the original deadline (${formatDateTime(order.extensionAlert.currentDeadline)}) stands.`}
        </Alert>
      )}
      {order.events.length === 0 ? (
        <p className="text-sm text-slate-700">No deliveries or proposals yet.</p>
      ) : (
        <ol className="flex flex-col gap-1 text-sm">
          {order.events.map((event, index) => (
            <li key={`${event.date}-${index}`} className="break-words text-slate-700">
              <time dateTime={event.date}>{formatDateTime(event.date)}</time> · {ORDER_EVENT_LABEL[event.type]} ({event.by})
              {event.deadline && <> · {formatDateTime(event.deadline)}</>}
              {event.note && <> · “{event.note}”</>}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
