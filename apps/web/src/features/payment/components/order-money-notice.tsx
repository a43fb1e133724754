import { amountToCents, formatUsd } from '@app/domain/money';
import { UNAPPLIED_PAYMENT_MESSAGE } from '@app/domain/payment';
import { Alert } from '@/components/ui/alert';
import type { PayableOrder, PaymentSettings } from '../lib/types';
import { PayButton } from './pay-button';

interface OrderMoneyNoticeProps {
  order: PayableOrder & { amountDue?: number; unappliedPayment?: true };
  settings: PaymentSettings;
}

/**
 * ADR 0034 on the order page: money that arrived and did not settle the order (support will
 * contact the customer), and the difference a forced edit of a paid order left to pay, with its own Pay
 * button (the server charges exactly the difference).
 */
export function OrderMoneyNotice({ order, settings }: OrderMoneyNoticeProps) {
  const due = order.amountDue;
  return (
    <>
      {order.unappliedPayment && <Alert tone="warning" title={UNAPPLIED_PAYMENT_MESSAGE} />}
      {due !== undefined && due > 0 && (
        <Alert tone="info" title={`Your changes add ${formatUsd(amountToCents(due))} to this order`}>
          <div className="flex flex-col items-start gap-2">
            <p>You have paid for the order as it was. Pay the difference to go on.</p>
            <PayButton order={{ ...order, finalPrice: due }} settings={settings} />
          </div>
        </Alert>
      )}
    </>
  );
}
