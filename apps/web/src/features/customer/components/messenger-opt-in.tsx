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
  // The box shows the click at once (a controlled box would snap back until the mutation's state arrives).
  const [sending, setSending] = useState<boolean | null>(null);
  const checked = sending ?? customer.facebookData.isChecked;
  return (
    <fieldset className="flex flex-col gap-1 border-t border-slate-200 pt-4" aria-busy={update.isPending || undefined}>
      <legend className="sr-only">Facebook Messenger</legend>
      <CheckboxField
        label="Send order updates to me on Facebook Messenger"
        checked={checked}
        disabled={update.isPending}
        onChange={(event) => {
          setSending(event.currentTarget.checked);
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
              onError: () => toast.error(TRANSPORT_MESSAGE.somethingWentWrong),
              onSettled: () => setSending(null),
            },
          );
        }}
      />
      <p className="ml-6 text-sm text-slate-600">Saved as soon as you tick or untick it.</p>
    </fieldset>
  );
}
