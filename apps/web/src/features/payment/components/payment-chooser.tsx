import { PAYMENT_SYSTEM_NAME } from '@app/domain/payment';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import type { PayFlow } from '../hooks/use-pay';

export const PAYMENT_CHOOSER_TITLE = 'Choose a payment method';

/** SPEC §4 "the payment method chooser": each allowed provider by name, the price with 2 decimals (SPEC §9). */
export function PaymentChooser({ flow, orderId }: { flow: PayFlow; orderId: number }) {
  return (
    <Dialog open={flow.choosing} onOpenChange={flow.setChoosing} title={PAYMENT_CHOOSER_TITLE}>
      <p className="text-sm text-slate-700">
        Order #{orderId}. You will be taken to the payment system to pay {flow.price}.
      </p>
      <ul className="flex flex-col gap-2" aria-label="Payment methods">
        {flow.systems.map((system) => (
          <li key={system}>
            <Button variant="secondary" className="min-h-12 w-full justify-between" onClick={() => flow.pay(system)}>
              {/* The name is 'Pay $20.19 with PayPal', and it holds the words on screen (WCAG 2.5.3). */}
              <span>
                <span className="sr-only">Pay {flow.price} with </span>
                {PAYMENT_SYSTEM_NAME[system]}
              </span>
              <span className="tabular-nums" aria-hidden="true">
                {flow.price}
              </span>
            </Button>
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
