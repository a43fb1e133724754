// ADR 0101: the upgrade form (react-hook-form), loaded when "Upgrade order" is opened, not with the order page.
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { OrderDetail } from '@app/domain/order';
import { pagesMaxFor, ORDER_FORM_LIMITS } from '@app/domain/order-form/rules';
import { amountToCents, formatUsd } from '@app/domain/money';
import { UPGRADE_EXTRA_NAME, UPGRADE_EXTRAS, UPGRADE_MESSAGE, urgencyLabel, type UpgradeExtra } from '@app/domain/upgrade/rules';
import type { UpgradeBody } from '@app/domain/upgrade';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field, TextField } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { useCreateUpgrade, useSiteUrgencies, useUpgradeQuote } from '../api/upgrade';

const usd = (amount: number) => formatUsd(amountToCents(amount));
/** The live preview waits for a pause in typing before it asks the server. */
const PREVIEW_DELAY_MS = 300;

/** What the route gives the panel: an upgrade to pay goes through the payment feature's one chooser (ADR 0086). */

/** What the route gives the panel: an upgrade to pay goes through the payment feature's one chooser (ADR 0086). */
export interface UpgradeCharge {
  upgradeId: string;
  difference: number;
}

interface UpgradeFormValues {
  pages: number;
  /** '' keeps the current deadline; otherwise a shorter urgency, in hours */
  urgency: string;
  extras: UpgradeExtra[];
}

const useDebounced = <T,>(value: T, ms: number): T => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
};

/** The request the form stands for; null when nothing is added yet. */
const bodyOf = (order: OrderDetail, values: UpgradeFormValues): UpgradeBody | null => {
  const pages = Number.isFinite(values.pages) ? values.pages : order.pages;
  const extras = [...(values.extras ?? [])].sort();
  const urgency = values.urgency === '' ? undefined : Number(values.urgency);
  if (pages === order.pages && urgency === undefined && extras.length === 0) return null;
  return { ...(pages === order.pages ? {} : { pages }), ...(urgency === undefined ? {} : { urgency }), extras };
};

export function UpgradeForm({
  formId,
  formRef,
  order,
  idSite,
  pay,
}: {
  formId: string;
  formRef: React.RefObject<HTMLFormElement | null>;
  order: OrderDetail;
  idSite: number;
  pay: (charge: UpgradeCharge) => ReactNode;
}) {
  const pagesMax = pagesMaxFor(order.siteCategory);
  // Opened by "Upgrade order": the first field takes the focus once the form is there.
  useEffect(() => {
    formRef.current?.querySelector<HTMLInputElement>('input')?.focus();
  }, [formRef]);
  const { register, handleSubmit, control, setError, formState } = useForm<UpgradeFormValues>({
    defaultValues: { pages: order.pages, urgency: '', extras: [] },
  });
  const values = useWatch({ control }) as UpgradeFormValues;
  // The preview asks for what the form says after a pause in typing (a string key: one request per distinct body).
  const liveKey = JSON.stringify(bodyOf(order, values));
  const bodyKey = useDebounced(liveKey, PREVIEW_DELAY_MS);
  const body = useMemo(() => JSON.parse(bodyKey) as UpgradeBody | null, [bodyKey]);
  const quote = useUpgradeQuote(order.id, body ?? { extras: [] }, body !== null);
  const urgencies = useSiteUrgencies(idSite);
  const create = useCreateUpgrade(order.id);
  const [made, setMade] = useState<{ key: string; charge: UpgradeCharge } | null>(null);
  // A change to the form after the upgrade was made asks for a new one.
  const charge = made?.key === liveKey ? made.charge : null;

  const shorter = (urgencies.data ?? []).filter((u) => u.hours < order.urgency).sort((a, b) => b.hours - a.hours);
  const chosenHours = values.urgency === '' ? order.urgency : Number(values.urgency);
  const offered = UPGRADE_EXTRAS.filter((key) => order.features[key] !== 2);
  const errors = formState.errors;

  const onSubmit = handleSubmit((form) => {
    const request = bodyOf(order, form);
    if (!request) {
      setError('root', { message: UPGRADE_MESSAGE.nothingAdded });
      return;
    }
    create.mutate(request, {
      onSuccess: (upgrade) =>
        setMade({ key: JSON.stringify(request), charge: { upgradeId: upgrade.upgradeId, difference: upgrade.difference } }),
      onError: (error) => {
        // The server's field errors (the same rule) go on their fields; one that names none beside the button.
        const fields = error instanceof ApiError ? error.fieldErrors : {};
        let placed = false;
        for (const name of ['pages', 'urgency', 'extras'] as const) {
          const message = fields[name]?.[0];
          if (message) {
            setError(name, { message });
            placed = true;
          }
        }
        if (!placed) setError('root', { message: errorMessage(error) });
      },
    });
  });

  const preview = quote.data && body !== null ? quote.data : null;
  return (
    <form id={formId} ref={formRef} noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Upgrade order">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label={`Pages (now ${order.pages})`}
          type="number"
          inputMode="numeric"
          min={order.pages}
          max={pagesMax}
          error={errors.pages?.message}
          {...register('pages', { valueAsNumber: true })}
        />
        <Field label="Deadline" error={errors.urgency?.message} hint={`Now: ${formatDateTime(order.deadline)}`}>
          {(control) => (
            <select className={`${inputClass} h-[2.625rem]`} {...register('urgency')} {...control}>
              <option value="">Keep the current deadline ({urgencyLabel(order.urgency)})</option>
              {shorter.map((u) => (
                <option key={u.id} value={u.hours}>
                  {u.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {offered.length > 0 && (
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-800">Add extras</legend>
          {offered.map((key) => {
            const unavailable = key === 'extraQualityCheck' && chosenHours < ORDER_FORM_LIMITS.extraQualityCheckMinHours;
            return (
              <label key={key} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" className="size-4 accent-primary" value={key} disabled={unavailable} {...register('extras')} />
                {UPGRADE_EXTRA_NAME[key]}
                {unavailable && <span className="text-slate-600">({UPGRADE_MESSAGE.qualityCheckShort})</span>}
              </label>
            );
          })}
          {errors.extras?.message && <p className="text-sm text-red-700">{errors.extras.message}</p>}
        </fieldset>
      )}

      <div role="status" aria-live="polite" className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
        {body === null ? (
          <p className="text-slate-700">Choose what to add to see the new price.</p>
        ) : quote.isError ? (
          <p className="text-red-800">{errorMessage(quote.error)}</p>
        ) : preview ? (
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
            <dt className="text-slate-700">New price</dt>
            <dd className="tabular-nums">
              {usd(preview.newPrice)} <span className="text-slate-600">(now {usd(preview.currentPrice)})</span>
            </dd>
            <dt className="font-semibold">To pay now</dt>
            <dd className="font-semibold tabular-nums">{usd(preview.difference)}</dd>
            <dt className="text-slate-700">Deadline</dt>
            <dd>{formatDateTime(preview.deadline)}</dd>
          </dl>
        ) : (
          <p className="text-slate-700">Working out the price…</p>
        )}
      </div>

      {errors.root?.message && <Alert tone="error">{errors.root.message}</Alert>}
      {charge ? (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-700">Your upgrade is ready. It applies to the order as soon as the difference is paid.</p>
          {pay(charge)}
        </div>
      ) : (
        <div className="flex justify-end">
          <Button type="submit" busy={create.isPending} disabled={body === null || quote.isError}>
            Continue to payment
          </Button>
        </div>
      )}
    </form>
  );
}
