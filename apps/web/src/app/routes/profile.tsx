import { useState, type ReactNode } from 'react';
import { CUSTOMER_STATUS } from '@app/domain/customer';
import { EmailConfirmationBanner } from '@/features/customer/components/email-confirmation-banner';
import { MessengerOptIn } from '@/features/customer/components/messenger-opt-in';
import { PasswordForm } from '@/features/customer/components/password-form';
import { PrivacyDialog } from '@/features/customer/components/privacy-dialog';
import { ProfileForm } from '@/features/customer/components/profile-form';
import { EmailChangeForm } from '@/features/customer/components/email-change-form';
import { BillingForm } from '@/features/customer/components/billing-form';
import { SessionsList } from '@/features/customer/components/sessions-list';
import { useCurrentCustomer } from '@/features/customer/api/get-customer';
import { useConfirmEmailParam } from '@/features/customer/hooks/use-confirm-email-param';
import { useChangeEmailParam } from '@/features/customer/hooks/use-change-email-param';
import { useDeleteAccountParam } from '@/features/customer/hooks/use-delete-account-param';
import { Button } from '@/components/ui/button';
import { NotificationPreferencesTable } from '@/features/notifications/components/notification-preferences';
import { ColorSchemeChoiceField } from '@/features/settings/components/color-scheme-choice';
import { PageHeading } from '@/components/ui/page-heading';

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4 sm:p-6">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** SPEC §2 "/profile: Settings": personal information, password, signed-in devices and the privacy modal. */
export function Component() {
  useConfirmEmailParam();
  useChangeEmailParam();
  useDeleteAccountParam();
  const customer = useCurrentCustomer();
  const [privacyOpen, setPrivacyOpen] = useState(false);
  if (!customer) return null;
  return (
    <div className="flex max-w-3xl flex-col gap-6">
      <PageHeading>Settings</PageHeading>
      {customer.status.id === CUSTOMER_STATUS.awaitingConfirmation.id && <EmailConfirmationBanner email={customer.email} />}
      <Section id="personal-information" title="Personal information">
        <p className="text-sm text-slate-700">
          Email status:{' '}
          <strong className={customer.emailConfirmed ? 'text-green-800' : 'text-amber-900'}>
            {customer.emailConfirmed ? 'confirmed' : 'not confirmed'}
          </strong>
        </p>
        <EmailChangeForm customer={customer} />
        <ProfileForm customer={customer} />
        <MessengerOptIn customer={customer} />
      </Section>
      <Section id="billing" title="Billing details">
        <BillingForm customer={customer} />
      </Section>
      <Section id="password" title="Password">
        <PasswordForm />
      </Section>
      <Section id="appearance" title="Appearance">
        <ColorSchemeChoiceField />
      </Section>
      <Section id="notification-settings" title="Notification settings">
        <NotificationPreferencesTable />
      </Section>
      <Section id="sessions" title="Signed-in devices">
        <SessionsList />
      </Section>
      <Section id="privacy" title="Privacy">
        <p className="text-sm text-slate-700">Your consent preferences, a copy of your personal data, and deleting the account.</p>
        <div>
          <Button variant="secondary" onClick={() => setPrivacyOpen(true)}>
            Privacy settings
          </Button>
        </div>
      </Section>
      <PrivacyDialog customer={customer} open={privacyOpen} onOpenChange={setPrivacyOpen} />
    </div>
  );
}
