import { useEffect, useId } from 'react';
import { PAYMENT_SYSTEM_NAME } from '@app/domain/payment';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { toast } from '@/components/ui/toast';
import type { PayFlow } from '../hooks/use-pay';
import { PAYMENT_LINE, PAYMENT_MARK } from './payment-marks';

export const PAYMENT_CHOOSER_TITLE = 'Choose a payment method';

/** SPEC §4 "the payment method chooser": each allowed provider by name, the price with 2 decimals (SPEC §9). */
export function PaymentChooser({ flow, orderId }: { flow: PayFlow; orderId: number }) {
  const id = useId();
  // Issue 27: the sign-up's toasts have said their piece; they do not sit over the chooser.
  useEffect(() => {
    if (flow.choosing) toast.dismissAll();
  }, [flow.choosing]);
  return (
    <Dialog open={flow.choosing} onOpenChange={flow.setChoosing} title={PAYMENT_CHOOSER_TITLE}>
      <p className="text-sm text-slate-700">
        Order #{orderId}. You will be taken to the payment system to pay {flow.price}.
      </p>
      <ul className="flex flex-col gap-2" aria-label="Payment methods">
        {flow.systems.map((system) => (
          <li key={system}>
            <Button
              variant="secondary"
              className="min-h-14 w-full justify-between gap-3 text-left"
              aria-describedby={`${id}-${system}`}
              onClick={() => flow.pay(system)}
            >
              {/* The name is 'Pay $20.19 with PayPal', and it holds the words on screen (WCAG 2.5.3). */}
              <span className="flex min-w-0 flex-1 items-center gap-3">
                {PAYMENT_MARK[system]}
                <span className="flex min-w-0 flex-col">
                  <span>
                    <span className="sr-only">Pay {flow.price} with </span>
                    {PAYMENT_SYSTEM_NAME[system]}
                  </span>
                  <span id={`${id}-${system}`} aria-hidden="true" className="text-xs font-normal whitespace-normal text-slate-600">
                    {PAYMENT_LINE[system]}
                  </span>
                </span>
              </span>
              <span className="shrink-0 tabular-nums" aria-hidden="true">
                {flow.price}
              </span>
            </Button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
