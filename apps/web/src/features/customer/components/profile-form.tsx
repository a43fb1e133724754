import { useForm } from 'react-hook-form';
import { useRegisterAfterChange } from '@/lib/register-after-change';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  CUSTOMER_MESSAGE,
  PROFILE_PHONE_MAX_LENGTH,
  customerUpdateBodySchema,
  type Customer,
  type CustomerUpdateBody,
} from '@app/domain/customer';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { Button } from '@/components/ui/button';
import { CheckboxField, TextField } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { useUpdateCustomer } from '../api/update-customer';

// The settings form edits the profile fields the customer sees; the Messenger opt-in keeps its value.
const profileFormSchema = customerUpdateBodySchema.omit({ enabledFacebookMessenger: true });
type ProfileFormValues = Omit<CustomerUpdateBody, 'enabledFacebookMessenger'>;

const valuesOf = (customer: Customer): ProfileFormValues => ({
  firstName: customer.firstName,
  lastName: customer.lastName,
  phone: customer.phone,
  enabledNewsletters: customer.enabledNewsletters,
  enabledNightCalls: customer.enabledNightCalls,
});

/** SPEC §7 PUT /api/en/customers/customer with SPEC §8 "Profile and privacy" notices. */
export function ProfileForm({ customer }: { customer: Customer }) {
  const update = useUpdateCustomer();
  const { register, handleSubmit, formState } = useForm<ProfileFormValues>({
    resolver: zodResolver(profileFormSchema),
    mode: 'onBlur',
    values: valuesOf(customer),
    resetOptions: { keepDirtyValues: true },
  });
  const field = useRegisterAfterChange(register, formState.isSubmitted);
  const onSubmit = handleSubmit((values) =>
    update.mutate(
      { ...values, enabledFacebookMessenger: customer.enabledFacebookMessenger },
      {
        onSuccess: () => toast.success(CUSTOMER_MESSAGE.profileUpdated),
        onError: () => toast.error(TRANSPORT_MESSAGE.somethingWentWrong),
      },
    ),
  );

  return (
    <form noValidate onSubmit={onSubmit} className="flex max-w-xl flex-col gap-4">
      <TextField label="Email" type="email" value={customer.email} readOnly />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="First name" autoComplete="given-name" error={formState.errors.firstName?.message} {...field('firstName')} />
        <TextField label="Last name" autoComplete="family-name" error={formState.errors.lastName?.message} {...field('lastName')} />
      </div>
      <TextField
        label="Phone"
        type="tel"
        inputMode="numeric"
        autoComplete="tel"
        maxLength={PROFILE_PHONE_MAX_LENGTH}
        hint={`Digits only, up to ${PROFILE_PHONE_MAX_LENGTH}.`}
        error={formState.errors.phone?.message}
        {...field('phone')}
      />
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-800">Communication</legend>
        <CheckboxField label="Send me news and special offers" {...field('enabledNewsletters')} />
        <CheckboxField label="You may call me at night" {...field('enabledNightCalls')} />
      </fieldset>
      <div>
        <Button type="submit" busy={update.isPending}>
          Save changes
        </Button>
      </div>
    </form>
  );
}
