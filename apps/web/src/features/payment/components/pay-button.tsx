import { CreditCard } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { Button } from '@/components/ui/button';
import { usePay } from '../hooks/use-pay';
import type { PayableOrder, PaymentSettings, UpgradeCharge } from '../lib/types';
import { PaymentChooser } from './payment-chooser';
import { RedirectNotice } from './redirect-notice';

interface PayButtonProps {
  order: PayableOrder;
  settings: PaymentSettings;
  className?: string;
  /** where several orders share a screen (the dashboard) the name says which: 'Pay $90.00 for order #42' */
  withOrderNumber?: boolean;
  /** ADR 0086: pay an upgrade's difference instead of the order's price (the same chooser and providers) */
  upgrade?: UpgradeCharge;
}

/** The Pay action of an unpaid order (its page and its dashboard card): SPEC §4 "Payment flow". */
export function PayButton({ order, settings, className = '', withOrderNumber = false, upgrade }: PayButtonProps) {
  const flow = usePay(order, settings, upgrade);
  return (
    <>
      <Button
        busy={flow.leaving}
        className={className}
        aria-label={withOrderNumber ? `Pay ${flow.price} for order #${order.id}` : undefined}
        onClick={flow.begin}
      >
        <Icon icon={CreditCard} className="size-4" />
        Pay {flow.price}
        {upgrade && <span className="sr-only"> for the upgrade</span>}
      </Button>
      <PaymentChooser flow={flow} orderId={order.id} />
      <RedirectNotice show={flow.leaving} />
    </>
  );
}
