import { Link } from 'wouter';
import { LifeBuoy, RefreshCw } from 'lucide';
import { paths } from '@/config/paths';
import { Icon } from '@/components/ui/icon';
import { PAYMENT_MESSAGE, showsAlternativePayment } from '@app/domain/payment';
import { Button, buttonClass } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

interface PaymentErrorDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  order: { id: number; pending: boolean };
  multipayment: boolean;
  onChooseAlternative: () => void;
  /** the dialog closes as the support chat opens */
  onContactSupport: () => void;
}

/** SPEC §8 "Payment error modal". Contact Support opens the order's support chat in place (CONTRACT "Chat"). */
export function PaymentErrorDialog({
  open,
  onOpenChange,
  order,
  multipayment,
  onChooseAlternative,
  onContactSupport,
}: PaymentErrorDialogProps) {
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
        {/* Issue 27: the order's support chat, on this page (SPEC §2 `?panel=support`), not the mail program. */}
        <Link
          to={`${paths.orderInfo(order.id, 'messages')}?panel=support`}
          onClick={onContactSupport}
          className={buttonClass('secondary', 'no-underline')}
        >
          <Icon icon={LifeBuoy} className="size-4" />
          {PAYMENT_MESSAGE.contactSupport}
        </Link>
      </div>
    </Dialog>
  );
}
