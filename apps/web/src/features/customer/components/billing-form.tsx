import { useState } from 'react';
import { billingDetailsSchema, type Customer } from '@app/domain/customer';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { BILLING_LIMITS, type BillingDetails } from '@app/domain/transaction/rules';
import { Button } from '@/components/ui/button';
import { Field, TextField } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { useUpdateBilling } from '../api/update-customer';

/** Not a SPEC text (ADR 0085): the billing form's save notice. */
const BILLING_SAVED = 'Your billing details have been saved. They are printed on the receipts of your next payments.';

/** ADR 0085: the billing details printed on receipts; documents already issued keep the details they had. */
export function BillingForm({ customer }: { customer: Customer }) {
  const update = useUpdateBilling();
  const [value, setValue] = useState<BillingDetails>(customer.billing);
  const [errors, setErrors] = useState<Partial<Record<keyof BillingDetails, string>>>({});
  const set = (patch: Partial<BillingDetails>) => setValue((v) => ({ ...v, ...patch }));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = billingDetailsSchema.safeParse(value);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    update.mutate(parsed.data, {
      onSuccess: () => toast.success(BILLING_SAVED),
      onError: () => toast.error(TRANSPORT_MESSAGE.somethingWentWrong),
    });
  };
  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="Billing details">
      <p className="text-sm text-slate-700">
        Printed on the receipts of your next payments; receipts already issued keep the details they were issued with.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Name on receipts"
          autoComplete="name"
          maxLength={BILLING_LIMITS.name}
          value={value.name}
          error={errors.name}
          onChange={(e) => set({ name: e.target.value })}
        />
        <TextField
          label="Company"
          autoComplete="organization"
          maxLength={BILLING_LIMITS.company}
          value={value.company}
          error={errors.company}
          onChange={(e) => set({ company: e.target.value })}
        />
        <TextField
          label="Tax ID (VAT number)"
          maxLength={BILLING_LIMITS.taxId}
          value={value.taxId}
          error={errors.taxId}
          onChange={(e) => set({ taxId: e.target.value })}
        />
        <div className="sm:col-span-2">
          <Field label="Billing address" error={errors.address}>
            {(control) => (
              <textarea
                rows={3}
                maxLength={BILLING_LIMITS.address}
                className={inputClass}
                value={value.address}
                onChange={(e) => set({ address: e.target.value })}
                {...control}
              />
            )}
          </Field>
        </div>
      </div>
      <div>
        <Button type="submit" busy={update.isPending}>
          Save billing details
        </Button>
      </div>
    </form>
  );
}
