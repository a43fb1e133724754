import { useState } from 'react';
import { CUSTOMER_MESSAGE, type Customer } from '@app/domain/customer';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { CheckboxField } from '@/components/ui/field';
import { toast } from '@/components/ui/toast';
import { useUpdateCustomer } from '../api/update-customer';

/**
 * SPEC §4 "The Facebook messenger opt-in toggles on checkbox events": each checked/unchecked event saves
 * `enabledFacebookMessenger` at once with the stored profile (not the settings form's unsaved edits);
 * `facebookData.isChecked` mirrors it (ADR 0053).
 */
export function MessengerOptIn({ customer }: { customer: Customer }) {
  const update = useUpdateCustomer();
  // The box shows the click at once and keeps it until the stored profile has caught up (a controlled box
  // would snap back until then: the mutation settles a moment before the profile's new state renders).
  const stored = customer.facebookData.isChecked;
  const [sending, setSending] = useState<{ from: boolean; to: boolean } | null>(null);
  const checked = sending !== null && sending.from === stored ? sending.to : stored;
  return (
    <fieldset className="flex flex-col gap-1 border-t border-slate-200 pt-4" aria-busy={update.isPending || undefined}>
      <legend className="sr-only">Facebook Messenger</legend>
      <CheckboxField
        label="Send order updates to me on Facebook Messenger"
        checked={checked}
        disabled={update.isPending}
        onChange={(event) => {
          setSending({ from: stored, to: event.currentTarget.checked });
          update.mutate(
            {
              firstName: customer.firstName,
              lastName: customer.lastName,
              phone: customer.phone,
              enabledNewsletters: customer.enabledNewsletters,
              enabledNightCalls: customer.enabledNightCalls,
              enabledFacebookMessenger: event.currentTarget.checked,
            },
            {
              onSuccess: () => toast.success(CUSTOMER_MESSAGE.profileUpdated),
              onError: () => {
                setSending(null);
                toast.error(TRANSPORT_MESSAGE.somethingWentWrong);
              },
            },
          );
        }}
      />
      <p className="ml-6 text-sm text-slate-600">Saved as soon as you tick or untick it.</p>
    </fieldset>
  );
}
