import { CUSTOMER_STATUS } from '@app/domain/customer';
import { EmailConfirmationBanner } from '@/features/customer/components/email-confirmation-banner';
import { ProfileForm } from '@/features/customer/components/profile-form';
import { useCurrentCustomer } from '@/features/customer/api/get-customer';
import { useConfirmEmailParam } from '@/features/customer/hooks/use-confirm-email-param';
import { PageHeading } from '@/components/ui/page-heading';

/** SPEC §2 "/profile: Settings" (privacy, password and account deletion come in a later issue). */
export function Component() {
  useConfirmEmailParam();
  const customer = useCurrentCustomer();
  return (
    <div className="flex flex-col gap-6">
      <PageHeading>Settings</PageHeading>
      {customer && customer.status.id === CUSTOMER_STATUS.awaitingConfirmation.id && (
        <EmailConfirmationBanner email={customer.email} />
      )}
      {customer && (
        <section aria-labelledby="personal-information" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6">
          <h2 id="personal-information" className="text-lg font-semibold">
            Personal information
          </h2>
          <ProfileForm customer={customer} />
        </section>
      )}
    </div>
  );
}
