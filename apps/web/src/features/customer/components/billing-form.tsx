import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { billingDetailsSchema, type Customer } from '@app/domain/customer';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { BILLING_LIMITS, type BillingDetails } from '@app/domain/transaction/rules';
import { Button } from '@/components/ui/button';
import { Field, TextField } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';
import { toast } from '@/components/ui/toast';
import { ApiError } from '@/lib/api-client';
import { useRegisterAfterChange } from '@/lib/register-after-change';
import { useUpdateBilling } from '../api/update-customer';

/** Not a SPEC text (ADR 0085): the billing form's save notice. */
const BILLING_SAVED = 'Your billing details have been saved. They are printed on the receipts of your next payments.';

const BILLING_FIELDS = ['name', 'company', 'taxId', 'address'] as const satisfies readonly (keyof BillingDetails)[];

/** ADR 0085: the billing details printed on receipts; documents already issued keep the details they had. */
export function BillingForm({ customer }: { customer: Customer }) {
  const update = useUpdateBilling();
  const { register, handleSubmit, formState, setError } = useForm<BillingDetails>({
    resolver: zodResolver(billingDetailsSchema),
    mode: 'onBlur',
    values: customer.billing,
    resetOptions: { keepDirtyValues: true },
  });
  const field = useRegisterAfterChange(register, formState.isSubmitted);
  const errors = formState.errors;
  const onSubmit = handleSubmit((values) =>
    update.mutate(values, {
      onSuccess: () => toast.success(BILLING_SAVED),
      onError: (error) => {
        // The server's field errors (the same rules, on the raw input) go on their fields.
        if (error instanceof ApiError)
          for (const name of BILLING_FIELDS) {
            const message = error.fieldErrors[name]?.[0];
            if (message) setError(name, { message });
          }
        toast.error(TRANSPORT_MESSAGE.somethingWentWrong);
      },
    }),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4" aria-label="Billing details">
      <p className="text-sm text-slate-700">
        Printed on the receipts of your next payments; receipts already issued keep the details they were issued with.
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Name on receipts"
          autoComplete="name"
          maxLength={BILLING_LIMITS.name}
          error={errors.name?.message}
          {...field('name')}
        />
        <TextField
          label="Company"
          autoComplete="organization"
          maxLength={BILLING_LIMITS.company}
          error={errors.company?.message}
          {...field('company')}
        />
        <TextField label="Tax ID (VAT number)" maxLength={BILLING_LIMITS.taxId} error={errors.taxId?.message} {...field('taxId')} />
        <div className="sm:col-span-2">
          <Field label="Billing address" error={errors.address?.message}>
            {(control) => (
              <textarea rows={3} maxLength={BILLING_LIMITS.address} className={inputClass} {...field('address')} {...control} />
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
