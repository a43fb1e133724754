import { useState, type FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import {
  isReasonRequired,
  ORDER_STATUS,
  ORDER_STATUS_NAME,
  STATUS_REASON_MAX_LENGTH,
  statusRouteTargets,
  type OrderStatusId,
} from '@app/domain/order/rules';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, TextField } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { useRecordPayment, useSetOrderStatus, type StaffOrderView } from '../api/orders';

const nameOf = (status: number): string => ORDER_STATUS_NAME[status as OrderStatusId] ?? `Status ${status}`;
const factsOf = (order: StaffOrderView) => ({
  hasWriter: order.idWriter !== null,
  delivered: order.delivered,
  amountDueCents: Math.round(order.amountDue * 100),
});

/** What each move that needs a reason does, said before it is confirmed. */
const CONFIRM: Partial<Record<OrderStatusId, { title: string; action: string; effect: string }>> = {
  [ORDER_STATUS.canceled]: {
    title: 'Cancel this order?',
    action: 'Cancel order',
    effect: 'The order is canceled for good. Money recorded on it is refunded, and the points it earned are taken back.',
  },
  [ORDER_STATUS.refunded]: {
    title: 'Refund this order?',
    action: 'Refund order',
    effect:
      'Everything recorded as paid is refunded (one refund transaction each), the points it earned are taken back, and the order is refunded for good.',
  },
  [ORDER_STATUS.hold]: {
    title: 'Put this order on hold?',
    action: 'Put on hold',
    effect: 'The work stops until support releases the hold.',
  },
};

/** Why a move the customer may expect is not offered now (the table's conditions, ADR 0071). */
const notOfferedHint = (order: StaffOrderView): string | undefined => {
  if (order.status === ORDER_STATUS.unpaid) return 'Paid is reached only through money: record a payment below, or wait for the provider.';
  if (order.status === ORDER_STATUS.paid) return 'Assigning a writer moves the order to In progress.';
  if (order.status === ORDER_STATUS.inProgress && !order.delivered) return 'Completed is offered once a file is delivered.';
  if (order.status === ORDER_STATUS.modified && order.amountDue > 0) return `The customer still owes $${order.amountDue.toFixed(2)}.`;
  return undefined;
};

/**
 * CONTRACT "Staff side", ADR 0071: support is offered only the moves the transition table allows now; cancel,
 * refund and hold ask for a reason and a confirmation; a refusal (409) shows the server's message.
 */
export function StatusForm({ order }: { order: StaffOrderView }) {
  const targets = statusRouteTargets(order.status, factsOf(order));
  const [status, setStatus] = useState<number | ''>('');
  const [confirming, setConfirming] = useState<OrderStatusId | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const change = useSetOrderStatus(order.id);
  const onSuccess = (next: StaffOrderView) => {
    toast.success(`Status changed to ${next.orderStatus.name}`);
    setConfirming(null);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (status === '') return;
    if (isReasonRequired(status)) {
      setReason('');
      setReasonError(null);
      change.reset();
      setConfirming(status as OrderStatusId);
      return;
    }
    change.mutate({ status }, { onSuccess, onError: (error) => toast.error(errorMessage(error)) });
  };

  const onConfirm = () => {
    if (confirming === null) return;
    if (reason.trim() === '') {
      setReasonError('Enter the reason');
      return;
    }
    setReasonError(null);
    change.mutate(
      { status: confirming, reason: reason.trim() },
      {
        onSuccess,
        onError: (error) => {
          const field = error instanceof ApiError ? error.fieldErrors.reason?.[0] : undefined;
          if (field) {
            setReasonError(field);
            return;
          }
          // A refusal (409: the order moved meanwhile) outlives this form, which the reloaded order replaces.
          toast.error(errorMessage(error));
          setConfirming(null);
        },
      },
    );
  };

  const confirm = confirming === null ? undefined : CONFIRM[confirming];
  const hint = notOfferedHint(order);
  if (targets.length === 0) {
    return (
      <p className="text-sm text-slate-700" role="note">
        {nameOf(order.status)} is final: no move is allowed from it.
      </p>
    );
  }
  return (
    <>
      <form onSubmit={onSubmit} className="flex flex-col gap-3" aria-label="Change status">
        <Field label="Move to" error={change.isError && confirming === null ? errorMessage(change.error) : undefined} hint={hint}>
          {(control) => (
            <select
              {...control}
              className={inputClass}
              value={status}
              onChange={(event) => setStatus(event.target.value === '' ? '' : Number(event.target.value))}
            >
              <option value="">Choose a move…</option>
              {targets.map((id) => (
                <option key={id} value={id}>
                  {ORDER_STATUS_NAME[id]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Button type="submit" variant="secondary" busy={change.isPending && confirming === null} disabled={status === ''}>
          Change status
        </Button>
      </form>
      <Dialog open={confirming !== null} onOpenChange={(open) => !open && setConfirming(null)} title={confirm?.title ?? ''}>
        <div className="flex flex-col gap-4">
          <p>
            Order #{order.id}, now {nameOf(order.status)}. {confirm?.effect}
          </p>
          <Field label="Reason" error={reasonError ?? undefined} hint="Kept in the order’s history; the customer sees it.">
            {(control) => (
              <textarea
                {...control}
                className={`${inputClass} min-h-24`}
                maxLength={STATUS_REASON_MAX_LENGTH}
                value={reason}
                onChange={(event) => setReason(event.target.value)}
              />
            )}
          </Field>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Keep it
            </Button>
            <Button busy={change.isPending} onClick={onConfirm}>
              {confirm?.action ?? 'Confirm'}
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}

interface PaymentFields {
  reference: string;
  amount: string;
}
const AMOUNT_PATTERN = /^\d{1,7}(\.\d{1,2})?$/;

/**
 * ADR 0071: paid is reached only through money. Support records a payment that came outside the providers
 * (a bank transfer) with its reference, for exactly what the order asks now.
 */
export function ManualPaymentForm({ order }: { order: StaffOrderView & { chargeDue: number } }) {
  const record = useRecordPayment(order.id);
  const { register, handleSubmit, formState, setError } = useForm<PaymentFields>({
    defaultValues: { reference: '', amount: order.chargeDue.toFixed(2) },
  });
  const errors = formState.errors;
  const onSubmit = handleSubmit(({ reference, amount }) =>
    record.mutate(
      { reference: reference.trim(), amount: Number(amount) },
      {
        onSuccess: (next) => toast.success(`Payment recorded: order #${next.id} is ${next.orderStatus.name}`),
        onError: (error) => {
          if (!(error instanceof ApiError)) return;
          for (const name of ['reference', 'amount'] as const) {
            const message = error.fieldErrors[name]?.[0];
            if (message) setError(name, { message });
          }
        },
      },
    ),
  );
  // The server's message when it named no field (a reference already recorded, the order moved meanwhile).
  const namedField =
    record.error instanceof ApiError && (record.error.fieldErrors.reference ?? record.error.fieldErrors.amount) !== undefined;
  const generalError =
    record.isError && !namedField && errors.reference === undefined && errors.amount === undefined ? errorMessage(record.error) : undefined;
  return (
    <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-3" aria-label="Record a manual payment" noValidate>
      <p className="text-sm text-slate-700">
        For money that came outside the payment providers (a bank transfer). The order asks ${order.chargeDue.toFixed(2)} now.
      </p>
      <TextField
        label="Payment reference"
        error={errors.reference?.message}
        autoComplete="off"
        maxLength={100}
        {...register('reference', { validate: (value) => value.trim() !== '' || 'Enter the payment reference' })}
      />
      <TextField
        label="Amount received (USD)"
        error={errors.amount?.message}
        inputMode="decimal"
        autoComplete="off"
        {...register('amount', {
          validate: (value) => (AMOUNT_PATTERN.test(value.trim()) && Number(value) > 0) || 'Enter the amount received, e.g. 24.50',
        })}
      />
      {generalError && (
        <p className="text-sm text-red-700" role="alert">
          {generalError}
        </p>
      )}
      <Button type="submit" variant="secondary" busy={record.isPending}>
        Record payment
      </Button>
    </form>
  );
}

const BY: Record<StaffOrderView['statusHistory'][number]['by'], string> = {
  customer: 'the customer',
  writer: 'a writer',
  support: 'support',
  system: 'the system',
};

/** ADR 0071: every change of the order's status, who made it and why, oldest first. */
export function StatusHistory({ order }: { order: StaffOrderView }) {
  if (order.statusHistory.length === 0) return <p className="text-sm text-slate-700">No changes recorded.</p>;
  return (
    <ol aria-label="Status history" className="flex flex-col gap-2 text-sm">
      {order.statusHistory.map((h, index) => (
        <li key={`${h.date}-${index}`} className="flex flex-col">
          <span>
            <span className="font-medium">{nameOf(h.status)}</span> · {formatDateTime(h.date)} · by {BY[h.by]}
            {h.actorId !== null && h.by !== 'customer' ? ` #${h.actorId}` : ''}
          </span>
          {h.reason && <span className="break-words text-slate-700">“{h.reason}”</span>}
        </li>
      ))}
    </ol>
  );
}
