import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useRegisterAfterChange } from '@/lib/register-after-change';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  CUSTOMER_MESSAGE,
  PROFILE_ADDRESS_MAX_LENGTH,
  PROFILE_TEXT_MAX_LENGTH,
  PROFILE_ZIP_MAX_LENGTH,
  customerUpdateBodySchema,
  type Customer,
  type CustomerUpdateBody,
} from '@app/domain/customer';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { Button } from '@/components/ui/button';
import { CheckboxField, Field, TextField } from '@/components/ui/field';
import { PhoneInput } from '@/components/ui/phone-input';
import { splitStoredPhone, storedPhone } from '@/lib/phone';
import { toast } from '@/components/ui/toast';
import { useUpdateCustomer } from '../api/update-customer';

// The settings form edits the profile fields; the Messenger opt-in saves on its own checkbox event (SPEC §4).
// The billing details have their own form (ADR 0085): a body without them keeps them.
const profileFormSchema = customerUpdateBodySchema.omit({ enabledFacebookMessenger: true, billing: true }).required();
type ProfileFormValues = Required<Omit<CustomerUpdateBody, 'enabledFacebookMessenger' | 'billing'>>;

const valuesOf = (customer: Customer): ProfileFormValues => ({
  firstName: customer.firstName,
  lastName: customer.lastName,
  phone: customer.phone,
  country: customer.country,
  state: customer.state,
  city: customer.city,
  address: customer.address,
  zip: customer.zip,
  enabledNewsletters: customer.enabledNewsletters,
  enabledNightCalls: customer.enabledNightCalls,
});

interface ProfilePhoneProps {
  id: string;
  stored: string;
  invalid: boolean | undefined;
  describedBy: string | undefined;
  inputRef: (element: HTMLInputElement | null) => void;
  onChange: (stored: string) => void;
  onBlur: () => void;
}

/**
 * The checkout's phone input on the profile (ADR 0091). The profile keeps digits only, dialling code first
 * (SPEC §5); the country chosen is kept here too, since +1 alone does not say Canada or the United States.
 */
function ProfilePhone({ stored, onChange, ...props }: ProfilePhoneProps) {
  const [value, setValue] = useState(() => splitStoredPhone(stored, 'US'));
  return (
    <PhoneInput
      {...props}
      autoComplete="tel"
      country={value.country}
      phone={value.phone}
      onChange={(next) => {
        setValue(next);
        onChange(storedPhone(next.phone, next.country));
      }}
    />
  );
}

/** SPEC §7 PUT /api/en/customers/customer with SPEC §8 "Profile and privacy" notices. */
export function ProfileForm({ customer }: { customer: Customer }) {
  const update = useUpdateCustomer();
  const { register, handleSubmit, formState, control } = useForm<ProfileFormValues>({
    resolver: zodResolver(profileFormSchema),
    mode: 'onBlur',
    values: valuesOf(customer),
    resetOptions: { keepDirtyValues: true },
  });
  const field = useRegisterAfterChange(register, formState.isSubmitted);
  const errors = formState.errors;
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
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <TextField label="Email" type="email" value={customer.email} readOnly />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="First name"
          autoComplete="given-name"
          maxLength={PROFILE_TEXT_MAX_LENGTH}
          error={errors.firstName?.message}
          {...field('firstName')}
        />
        <TextField
          label="Last name"
          autoComplete="family-name"
          maxLength={PROFILE_TEXT_MAX_LENGTH}
          error={errors.lastName?.message}
          {...field('lastName')}
        />
      </div>
      <Controller
        control={control}
        name="phone"
        render={({ field: phone }) => (
          <Field label="Phone" error={errors.phone?.message}>
            {(control) => (
              <ProfilePhone
                id={control.id}
                stored={phone.value}
                invalid={control['aria-invalid']}
                describedBy={control['aria-describedby']}
                inputRef={phone.ref}
                onChange={phone.onChange}
                onBlur={phone.onBlur}
              />
            )}
          </Field>
        )}
      />
      <fieldset className="grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 text-sm font-medium text-slate-800">Address</legend>
        <TextField
          label="Country"
          autoComplete="country-name"
          maxLength={PROFILE_TEXT_MAX_LENGTH}
          error={errors.country?.message}
          {...field('country')}
        />
        <TextField
          label="State / region"
          autoComplete="address-level1"
          maxLength={PROFILE_TEXT_MAX_LENGTH}
          error={errors.state?.message}
          {...field('state')}
        />
        <TextField
          label="City"
          autoComplete="address-level2"
          maxLength={PROFILE_TEXT_MAX_LENGTH}
          error={errors.city?.message}
          {...field('city')}
        />
        <TextField
          label="ZIP / postal code"
          autoComplete="postal-code"
          maxLength={PROFILE_ZIP_MAX_LENGTH}
          error={errors.zip?.message}
          {...field('zip')}
        />
        <div className="sm:col-span-2">
          <TextField
            label="Street address"
            autoComplete="street-address"
            maxLength={PROFILE_ADDRESS_MAX_LENGTH}
            error={errors.address?.message}
            {...field('address')}
          />
        </div>
      </fieldset>
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
