import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { DisputeOutcome, StaffDispute } from '@app/domain/dispute';
import { DISPUTE_MESSAGE, DISPUTE_OUTCOMES, disputeOutcomeLabel, disputeReasonLabel } from '@app/domain/dispute/rules';
import { amountToCents, formatUsd } from '@app/domain/money';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, TextField } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { Alert } from '@/components/ui/alert';
import { toast } from '@/components/ui/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { useResolveDispute, useStaffDisputes } from '../api/disputes';
import { MoneySection, OrderLink } from './money-queues';

const usd = (amount: number) => formatUsd(amountToCents(amount));
const AMOUNT_PATTERN = /^\d{1,7}(\.\d{1,2})?$/;

interface ResolveValues {
  outcome: DisputeOutcome | '';
  amount: string;
  deadline: string;
  idWriter: string;
  message: string;
}

/** "2030-01-05T14:00" for a datetime-local field, in the browser's own time zone. */
const localInput = (iso: string): string => {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** ADR 0087: support's one outcome with a message; the fields the outcome needs appear with it. */
function ResolveDialog({ dispute, open, onOpenChange }: { dispute: StaffDispute; open: boolean; onOpenChange: (open: boolean) => void }) {
  const resolve = useResolveDispute();
  const { register, handleSubmit, formState, setError, control } = useForm<ResolveValues>({
    defaultValues: {
      outcome: '',
      amount: dispute.requestedRefund !== null ? dispute.requestedRefund.toFixed(2) : '',
      deadline: localInput(new Date(new Date(dispute.deadline).getTime() + 2 * 86_400_000).toISOString()),
      idWriter: '',
      message: '',
    },
  });
  const outcome = useWatch({ control, name: 'outcome' });
  const onSubmit = handleSubmit((v) => {
    if (v.outcome === '') return;
    const body = {
      outcome: v.outcome,
      message: v.message.trim(),
      ...(v.outcome === 'partial_refund' ? { amount: Number(v.amount) } : {}),
      ...(v.outcome === 'extend' ? { deadline: new Date(v.deadline).toISOString() } : {}),
      ...(v.outcome === 'reassign' ? { idWriter: Number(v.idWriter) } : {}),
    };
    resolve.mutate(
      { disputeId: dispute.id, body },
      {
        onSuccess: () => {
          toast.success(`${DISPUTE_MESSAGE.resolved} ${disputeOutcomeLabel(body.outcome)}.`);
          onOpenChange(false);
        },
        onError: (error) => {
          const fields = error instanceof ApiError ? error.fieldErrors : {};
          for (const name of ['amount', 'deadline', 'idWriter', 'message'] as const) {
            const message = fields[name]?.[0];
            if (message) setError(name, { message });
          }
        },
      },
    );
  });
  const fieldError = resolve.error instanceof ApiError && Object.keys(resolve.error.fieldErrors).length > 0;
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Resolve dispute #${dispute.id}`}>
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4" noValidate>
        <p className="text-sm text-slate-700">
          Order #{dispute.orderId}: paid {usd(dispute.paid)}, {usd(dispute.refundable)} can still be refunded.
        </p>
        <Field label="Outcome" error={formState.errors.outcome?.message}>
          {(control) => (
            <select {...control} className={inputClass} {...register('outcome', { validate: (v) => v !== '' || 'Choose the outcome' })}>
              <option value="">Choose the outcome</option>
              {DISPUTE_OUTCOMES.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        {outcome === 'partial_refund' && (
          <TextField
            label="Amount to refund (USD)"
            inputMode="decimal"
            autoComplete="off"
            hint={`At most ${usd(dispute.refundable)}`}
            error={formState.errors.amount?.message}
            {...register('amount', {
              validate: (v) => (AMOUNT_PATTERN.test(v.trim()) && Number(v) > 0) || DISPUTE_MESSAGE.amountInvalid,
            })}
          />
        )}
        {outcome === 'extend' && (
          <TextField
            label="New deadline (your time)"
            type="datetime-local"
            error={formState.errors.deadline?.message}
            {...register('deadline', { validate: (v) => v !== '' || DISPUTE_MESSAGE.deadlineRequired })}
          />
        )}
        {outcome === 'reassign' && (
          <TextField
            label="New writer account id"
            inputMode="numeric"
            autoComplete="off"
            error={formState.errors.idWriter?.message}
            {...register('idWriter', { validate: (v) => /^\d{1,10}$/.test(v.trim()) || DISPUTE_MESSAGE.writerRequired })}
          />
        )}
        <Field label="Message to the customer" error={formState.errors.message?.message}>
          {(control) => (
            <textarea
              {...control}
              className={`${inputClass} min-h-24`}
              maxLength={2000}
              {...register('message', { validate: (v) => v.trim() !== '' || DISPUTE_MESSAGE.messageRequired })}
            />
          )}
        </Field>
        {resolve.isError && !fieldError && <Alert tone="error">{errorMessage(resolve.error)}</Alert>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          <Button type="submit" busy={resolve.isPending}>
            Resolve
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function DisputeRow({ dispute }: { dispute: StaffDispute }) {
  const [open, setOpen] = useState(false);
  return (
    <li className="flex flex-col gap-2 py-3 text-sm">
      <p className="flex flex-wrap gap-x-2">
        <span className="font-semibold text-slate-900">Dispute #{dispute.id}</span>
        <OrderLink orderId={dispute.orderId} />
        <span className="text-slate-700">{disputeReasonLabel(dispute.reason)}</span>
      </p>
      <p className="break-words whitespace-pre-line text-slate-800">{dispute.description}</p>
      <p className="text-slate-700">
        Answer by {formatDateTime(dispute.answerBy)} · paid {usd(dispute.paid)} · refundable {usd(dispute.refundable)}
        {dispute.requestedRefund !== null && <> · asks for {usd(dispute.requestedRefund)} back (policy)</>}
        {dispute.files.length > 0 && <> · {dispute.files.length} file(s)</>}
      </p>
      <div>
        <Button variant="secondary" onClick={() => setOpen(true)} aria-label={`Resolve dispute #${dispute.id}`}>
          Resolve
        </Button>
      </div>
      {open && <ResolveDialog dispute={dispute} open={open} onOpenChange={setOpen} />}
    </li>
  );
}

/** ADR 0087: open disputes, the soonest answer-by first; support resolves each with one outcome. */
export function DisputesQueue() {
  const query = useStaffDisputes('open');
  return (
    <MoneySection
      title="Disputes"
      description="Customers' disputes and cancel requests, the soonest answer-by first. Resolve each with one outcome and a message."
      query={query}
      rows={query.data?.disputes}
      empty="No open disputes."
      render={(dispute) => <DisputeRow key={dispute.id} dispute={dispute} />}
    />
  );
}
