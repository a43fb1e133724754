import { LifeBuoy, RefreshCw } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { PAYMENT_MESSAGE, showsAlternativePayment } from '@app/domain/payment';
import { Button, buttonClass } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

interface PaymentErrorDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  order: { id: number; pending: boolean };
  multipayment: boolean;
  supportEmail: string;
  onChooseAlternative: () => void;
}

/**
 * SPEC §8 "Payment error modal". Contact Support opens the support chat once messaging exists (CONTRACT "Chat");
 * until then it writes to the site's support email, the order named in the subject.
 */
export function PaymentErrorDialog({
  open,
  onOpenChange,
  order,
  multipayment,
  supportEmail,
  onChooseAlternative,
}: PaymentErrorDialogProps) {
  const subject = encodeURIComponent(`Payment problem with order #${order.id}`);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`${PAYMENT_MESSAGE.problem} #${order.id}`}>
      <p className="text-sm text-slate-700">
        The payment system did not confirm this payment. Try another payment method, or write to us and we will sort it out.
      </p>
      <div className="flex flex-col gap-2">
        {showsAlternativePayment(multipayment, order.pending) && (
          <Button onClick={onChooseAlternative}>
            <Icon icon={RefreshCw} className="size-4" />
            {PAYMENT_MESSAGE.chooseAlternative}
          </Button>
        )}
        <a href={`mailto:${supportEmail}?subject=${subject}`} className={buttonClass('secondary', 'no-underline')}>
          <Icon icon={LifeBuoy} className="size-4" />
          {PAYMENT_MESSAGE.contactSupport}
        </a>
      </div>
    </Dialog>
  );
}
