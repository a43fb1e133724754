// ADR 0101: the cancel and dispute forms (react-hook-form), loaded when one is opened, not with the order page.
import { useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import type { CancellationQuote } from '@app/domain/dispute';
import {
  CANCEL_MESSAGE,
  CANCEL_REASON_MAX_LENGTH,
  DISPUTE_DESCRIPTION_MAX_LENGTH,
  DISPUTE_MAX_FILES,
  DISPUTE_MESSAGE,
  DISPUTE_REASONS,
} from '@app/domain/dispute/rules';
import { formatUsd } from '@app/domain/money';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { ProgressBar } from '@/components/ui/progress-bar';
import { toast } from '@/components/ui/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { ordersChanged } from '@/lib/resources/orders';
import { UploadCanceledError } from '@/lib/upload';
import { openDispute, useCancelOrder } from '../api/cancel-dispute';

const cents = (amount: number): number => Math.round(amount * 100);

/** The cancel, confirmed with an optional reason: immediate before work, a request to support once work started. */
export function CancelDialog({
  orderId,
  quote,
  open,
  onOpenChange,
}: {
  orderId: number;
  quote: CancellationQuote;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const cancel = useCancelOrder(orderId, (result) => {
    toast.success(
      result.canceled
        ? result.refund > 0
          ? `${CANCEL_MESSAGE.canceled} ${formatUsd(cents(result.refund))} is on its way back.`
          : CANCEL_MESSAGE.canceled
        : CANCEL_MESSAGE.requestOpened,
    );
    onOpenChange(false);
  });
  const { register, handleSubmit, formState, setError } = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const immediate = quote.action === 'cancel';
  const onSubmit = handleSubmit(({ reason }) =>
    cancel.mutate(reason.trim(), {
      onError: (error) => {
        const field = error instanceof ApiError ? error.fieldErrors.reason?.[0] : undefined;
        if (field) setError('reason', { message: field });
      },
    }),
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={immediate ? 'Cancel the order' : 'Ask to cancel'}>
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4" noValidate>
        <p className="text-sm text-slate-700">
          {immediate
            ? quote.refund > 0
              ? `The order is canceled at once and ${formatUsd(cents(quote.refund))} goes back to ${quote.destination ?? 'your payment method'}.`
              : 'The order is canceled at once. Nothing was paid, so nothing is charged.'
            : `Your writer has started. Support reviews your request by the answer date; under the policy you would get ${formatUsd(cents(quote.refund))} back.`}
        </p>
        <Field
          label={immediate ? 'Why are you canceling? (optional)' : 'Why do you want to cancel?'}
          error={formState.errors.reason?.message}
        >
          {(control) => (
            <textarea
              {...control}
              className={`${inputClass} min-h-24`}
              maxLength={CANCEL_REASON_MAX_LENGTH}
              {...register('reason', {
                validate: (value) => value.trim().length <= CANCEL_REASON_MAX_LENGTH || CANCEL_MESSAGE.reasonTooLong,
              })}
            />
          )}
        </Field>
        {cancel.isError && !(cancel.error instanceof ApiError && cancel.error.fieldErrors.reason) && (
          <Alert tone="error">{errorMessage(cancel.error)}</Alert>
        )}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Keep the order
          </Button>
          <Button type="submit" busy={cancel.isPending}>
            {immediate
              ? quote.refund > 0
                ? `Cancel and refund ${formatUsd(cents(quote.refund))}`
                : 'Cancel the order'
              : 'Send the request'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

interface DisputeValues {
  reason: string;
  description: string;
}

/** ADR 0087: a reason from the list, a required description, optional files (the one upload path, with progress). */
export function DisputeDialog({ orderId, open, onOpenChange }: { orderId: number; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const filesId = useId();
  const [files, setFiles] = useState<File[]>([]);
  const [filesError, setFilesError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const { register, handleSubmit, formState, setError } = useForm<DisputeValues>({ defaultValues: { reason: '', description: '' } });

  const send = async (values: DisputeValues) => {
    if (files.length > DISPUTE_MAX_FILES) {
      setFilesError(DISPUTE_MESSAGE.tooManyFiles);
      return;
    }
    setFormError(null);
    const controller = new AbortController();
    abort.current = controller;
    setProgress(0);
    try {
      await openDispute(orderId, { reason: values.reason, description: values.description.trim(), files }, setProgress, controller.signal);
      toast.success(DISPUTE_MESSAGE.opened);
      void ordersChanged(queryClient);
      onOpenChange(false);
    } catch (error) {
      if (error instanceof UploadCanceledError) return;
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      if (fields.reason?.[0]) setError('reason', { message: fields.reason[0] });
      if (fields.description?.[0]) setError('description', { message: fields.description[0] });
      if (fields.files?.[0]) setFilesError(fields.files[0]);
      if (!fields.reason && !fields.description && !fields.files) setFormError(errorMessage(error));
    } finally {
      setProgress(null);
      abort.current = null;
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) abort.current?.abort();
        onOpenChange(next);
      }}
      title="Open a dispute"
    >
      <form onSubmit={(event) => void handleSubmit(send)(event)} className="flex flex-col gap-4" noValidate>
        <Field label="Reason" error={formState.errors.reason?.message}>
          {(control) => (
            <select
              {...control}
              className={inputClass}
              {...register('reason', { validate: (v) => v !== '' || DISPUTE_MESSAGE.reasonInvalid })}
            >
              <option value="">Choose a reason</option>
              {DISPUTE_REASONS.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="What went wrong?" error={formState.errors.description?.message}>
          {(control) => (
            <textarea
              {...control}
              className={`${inputClass} min-h-32`}
              maxLength={DISPUTE_DESCRIPTION_MAX_LENGTH}
              {...register('description', {
                validate: (v) =>
                  v.trim() === ''
                    ? DISPUTE_MESSAGE.descriptionRequired
                    : v.trim().length > DISPUTE_DESCRIPTION_MAX_LENGTH
                      ? DISPUTE_MESSAGE.descriptionTooLong
                      : true,
              })}
            />
          )}
        </Field>
        <div className="flex flex-col gap-1">
          <label htmlFor={filesId} className="text-sm font-medium text-slate-800">
            Files (optional, up to {DISPUTE_MAX_FILES})
          </label>
          <input
            id={filesId}
            type="file"
            multiple
            className="max-w-full text-sm text-slate-800"
            aria-invalid={filesError ? true : undefined}
            aria-describedby={filesError ? `${filesId}-error` : undefined}
            onChange={(event) => {
              setFiles(Array.from(event.target.files ?? []));
              setFilesError(null);
            }}
          />
          {filesError && (
            <p id={`${filesId}-error`} className="text-sm text-red-700">
              {filesError}
            </p>
          )}
        </div>
        {progress !== null && files.length > 0 && <ProgressBar value={progress} label="Uploading the files" />}
        <p className="text-sm text-slate-700">Support answers within 2 days, on this page and by email.</p>
        {formError && <Alert tone="error">{formError}</Alert>}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Close
          </Button>
          <Button type="submit" busy={progress !== null}>
            Send to support
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
