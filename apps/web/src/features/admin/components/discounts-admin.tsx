import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { ADMIN_CODE_PATTERN, ADMIN_MESSAGE } from '@app/domain/admin/rules';
import type { AdminDiscount, AdminDiscountBody } from '@app/domain/admin';
import { amountToCents, formatUsd } from '@app/domain/money';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { CheckboxField, TextField } from '@/components/ui/field';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { useDiscounts, useSaveDiscount } from '../api/admin';

interface CodeValues {
  code: string;
  kind: 'percent' | 'amount';
  value: string;
  firstOrderOnly: boolean;
  perCustomerLimit: string;
  totalLimit: string;
  startsAt: string;
  endsAt: string;
  isTopWriterDiscount: boolean;
  active: boolean;
}
type CodeField = keyof CodeValues;

/** A datetime-local value (the admin's time zone) and back to ISO. */
const toLocalInput = (iso: string | null): string => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const fromLocalInput = (value: string): string | null => (value ? new Date(value).toISOString() : null);
const limit = (value: string): number | null => (value.trim() === '' ? null : Number(value));

const valuesOf = (d: AdminDiscount | null): CodeValues => ({
  code: d?.code ?? '',
  kind: d && d.percent === 0 && d.amount > 0 ? 'amount' : 'percent',
  value: d ? (d.percent > 0 ? String(d.percent) : d.amount > 0 ? d.amount.toFixed(2) : '') : '',
  firstOrderOnly: d?.firstOrderOnly ?? false,
  perCustomerLimit: d?.perCustomerLimit === null || d === null ? '' : String(d.perCustomerLimit),
  totalLimit: d?.totalLimit === null || d === null ? '' : String(d.totalLimit),
  startsAt: toLocalInput(d?.startsAt ?? null),
  endsAt: toLocalInput(d?.endsAt ?? null),
  isTopWriterDiscount: d?.isTopWriterDiscount ?? false,
  active: d?.active ?? true,
});

const bodyOf = (v: CodeValues): AdminDiscountBody => ({
  code: v.code.trim(),
  percent: v.kind === 'percent' ? Number(v.value) : 0,
  amount: v.kind === 'amount' ? Number(v.value) : 0,
  firstOrderOnly: v.firstOrderOnly,
  perCustomerLimit: limit(v.perCustomerLimit),
  totalLimit: limit(v.totalLimit),
  startsAt: fromLocalInput(v.startsAt),
  endsAt: fromLocalInput(v.endsAt),
  isTopWriterDiscount: v.isTopWriterDiscount,
  active: v.active,
});

const FIELD_OF: Record<string, CodeField> = { percent: 'value', amount: 'value' };
const positiveLimit = (value: string) =>
  value.trim() === '' || (/^\d{1,7}$/.test(value.trim()) && Number(value) >= 1) || 'A whole number of 1 or more, or empty for no limit';

/** ADR 0090: create or edit one code; an edit sends the version it was opened at (409: someone else saved first). */
function CodeForm({ discount, onDone }: { discount: AdminDiscount | null; onDone: () => void }) {
  const save = useSaveDiscount();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError, control } = useForm<CodeValues>({ defaultValues: valuesOf(discount) });
  const kind = useWatch({ control, name: 'kind' });
  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    save.mutate(
      { id: discount?.id ?? null, version: discount?.version ?? null, body: bodyOf(values) },
      {
        onSuccess: (saved) => {
          toast.success(`Code ${saved.code} saved`);
          onDone();
        },
        onError: (error) => {
          const fields = error instanceof ApiError ? error.fieldErrors : {};
          let placed = false;
          for (const [key, messages] of Object.entries(fields)) {
            const field = FIELD_OF[key] ?? (key in valuesOf(null) ? (key as CodeField) : null);
            if (field && messages[0]) {
              setError(field, { message: messages[0] }, { shouldFocus: !placed });
              placed = true;
            }
          }
          if (!placed) setFormError(errorMessage(error));
        },
      },
    );
  });
  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      className="flex flex-col gap-3"
      aria-label={discount ? `Edit ${discount.code}` : 'New code'}
    >
      <TextField
        label="Code"
        autoComplete="off"
        error={formState.errors.code?.message}
        {...register('code', { validate: (v) => ADMIN_CODE_PATTERN.test(v.trim()) || ADMIN_MESSAGE.codeFormat })}
      />
      <fieldset className="flex flex-wrap gap-4">
        <legend className="mb-1 text-sm font-medium text-slate-800">Discount</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" value="percent" {...register('kind')} /> Percent
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input type="radio" value="amount" {...register('kind')} /> Fixed amount (USD)
        </label>
      </fieldset>
      <TextField
        label={kind === 'percent' ? 'Percent off' : 'Amount off (USD)'}
        inputMode="decimal"
        error={formState.errors.value?.message}
        {...register('value', {
          validate: (v) => {
            const n = Number(v);
            if (v.trim() === '' || !Number.isFinite(n) || n <= 0) return ADMIN_MESSAGE.noDiscount;
            if (kind === 'percent' && n > 100) return ADMIN_MESSAGE.percentOver100;
            if (kind === 'percent' && !Number.isInteger(n)) return 'A whole percent';
            return true;
          },
        })}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Uses per customer"
          hint="Empty: no limit"
          inputMode="numeric"
          error={formState.errors.perCustomerLimit?.message}
          {...register('perCustomerLimit', { validate: positiveLimit })}
        />
        <TextField
          label="Uses in total"
          hint="Empty: no limit"
          inputMode="numeric"
          error={formState.errors.totalLimit?.message}
          {...register('totalLimit', { validate: positiveLimit })}
        />
        <TextField label="Starts" type="datetime-local" error={formState.errors.startsAt?.message} {...register('startsAt')} />
        <TextField
          label="Ends"
          type="datetime-local"
          error={formState.errors.endsAt?.message}
          {...register('endsAt', {
            validate: (v, all) => !v || !all.startsAt || new Date(v) > new Date(all.startsAt) || ADMIN_MESSAGE.endsBeforeStart,
          })}
        />
      </div>
      <CheckboxField label="First order only" {...register('firstOrderOnly')} />
      <CheckboxField label="Top-writer discount (needs the top writer extra)" {...register('isTopWriterDiscount')} />
      <CheckboxField label="Active" {...register('active')} />
      {formError && <Alert tone="error">{formError}</Alert>}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" busy={save.isPending}>
          {discount ? 'Save code' : 'Create code'}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

const limitsText = (d: AdminDiscount): string =>
  [
    d.firstOrderOnly ? 'first order only' : null,
    d.perCustomerLimit === null ? null : `${d.perCustomerLimit} per customer`,
    d.totalLimit === null ? null : `${d.totalLimit} in total`,
    d.isTopWriterDiscount ? 'top writer' : null,
    d.startsAt ? `from ${formatDateTime(d.startsAt)}` : null,
    d.endsAt ? `until ${formatDateTime(d.endsAt)}` : null,
  ]
    .filter(Boolean)
    .join(' · ') || 'no limits';

/** ADR 0090: the discount codes with their uses and revenue; create and edit in a dialog. */
export function DiscountsAdmin() {
  const discounts = useDiscounts();
  const [editing, setEditing] = useState<AdminDiscount | 'new' | null>(null);
  return (
    <section aria-labelledby="discounts-heading" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="discounts-heading" className="text-lg font-semibold">
          All codes
        </h2>
        <Button onClick={() => setEditing('new')}>New code</Button>
      </div>
      {discounts.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm">
          <Spinner /> Loading codes…
        </p>
      ) : discounts.isError ? (
        <Alert tone="error" title="Codes could not be loaded">
          {errorMessage(discounts.error)}
        </Alert>
      ) : discounts.data.discounts.length === 0 ? (
        <p className="text-sm text-slate-700">No codes yet.</p>
      ) : (
        <ul aria-label="Discount codes" className="flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {discounts.data.discounts.map((d) => (
            <li key={d.id} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div className="min-w-0">
                <p className="font-semibold">
                  {d.code}{' '}
                  <span className="font-normal text-slate-700">
                    {d.percent > 0 ? `${d.percent} %` : formatUsd(amountToCents(d.amount))} off
                  </span>
                  {!d.active && (
                    <span className="ml-2 rounded bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-900">Inactive</span>
                  )}
                </p>
                <p className="text-sm text-slate-700">{limitsText(d)}</p>
                <p className="text-sm text-slate-700">
                  {d.uses} {d.uses === 1 ? 'use' : 'uses'} · {formatUsd(amountToCents(d.revenue))} revenue
                </p>
              </div>
              <Button variant="secondary" onClick={() => setEditing(d)} aria-label={`Edit ${d.code}`}>
                Edit
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Dialog
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
        title={editing === 'new' ? 'New discount code' : `Edit ${editing?.code ?? ''}`}
      >
        {editing !== null && <CodeForm discount={editing === 'new' ? null : editing} onDone={() => setEditing(null)} />}
      </Dialog>
    </section>
  );
}
