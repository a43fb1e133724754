import { MailWarning } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { CUSTOMER_MESSAGE } from '@app/domain/customer';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { useResendConfirmation } from '../api/resend-confirmation';

/** Shown while the account is Awaiting Confirmation (status 3, CONTRACT "Identity"). */
export function EmailConfirmationBanner({ email }: { email: string }) {
  const resend = useResendConfirmation();
  return (
    <section
      aria-labelledby="confirm-email-title"
      className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center"
    >
      <Icon icon={MailWarning} className="size-6 shrink-0" />
      <div className="flex-1">
        <h2 id="confirm-email-title" className="font-semibold">
          Please confirm your email
        </h2>
        <p className="text-sm">Open the link we sent to {email}. Some features, such as deleting the account, need a confirmed email.</p>
      </div>
      <Button
        variant="secondary"
        busy={resend.isPending}
        onClick={() =>
          resend.mutate(undefined, {
            onSuccess: () => toast.success(CUSTOMER_MESSAGE.confirmationSent(email)),
            onError: (error) => toast.error(errorMessage(error)),
          })
        }
      >
        Resend confirmation email
      </Button>
    </section>
  );
}
