import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'wouter';
import { ORDER_STATUS } from '@app/domain/order/rules';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { usePaymentStatusPolling } from '../api/get-payment-status';
import { usePay } from '../hooks/use-pay';
import { PAYMENT_PARAM, paymentOutcome } from '../lib/return-params';
import type { PayableOrder, PaymentSettings } from '../lib/types';
import { PaymentChooser } from './payment-chooser';
import { RedirectNotice } from './redirect-notice';
import { PaymentErrorDialog } from './payment-error-dialog';

/** How often and how long the return page asks whether the provider's callback has arrived. */
export const PAYMENT_CONFIRM_POLL_MS = 1_500;
export const PAYMENT_CONFIRM_TIMEOUT_MS = 60_000;

interface PaymentReturnProps {
  order: PayableOrder;
  settings: PaymentSettings;
  /** the order became paid: the caller refreshes what shows it (the order, the lists, the counts) */
  onPaid: () => void;
}

/**
 * The order page's side of the payment (CONTRACT "Payments"): back from the provider with
 * `?payment=success` it shows 'Confirming your payment…' until the status check says paid, then the
 * order paid without a reload; with `?payment=fail` the payment error modal (SPEC §8). `?pay=1` starts
 * the payment flow at once (the express checkout path, ADR 0023).
 */
export function PaymentReturn({ order, settings, onPaid }: PaymentReturnProps) {
  const [searchParams, setSearchParams] = useSearchParams();
  // What the provider said when it sent the buyer back; the parameter leaves the address bar later.
  const [outcome] = useState(() => paymentOutcome(searchParams));
  const [errorClosed, setErrorClosed] = useState(false);
  const [timedOut, setTimedOut] = useState(false);
  const flow = usePay(order, settings);

  const dropParam = useCallback(
    (name: string) =>
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [setSearchParams],
  );

  // The express checkout path: once, and only for an order that still waits for its payment.
  const payNow = searchParams.get(PAYMENT_PARAM.payNow) === '1';
  const payNowDone = useRef(false);
  const unpaid = order.status === ORDER_STATUS.unpaid;
  const { begin } = flow;
  useEffect(() => {
    if (!payNow || payNowDone.current) return;
    payNowDone.current = true;
    if (unpaid) begin();
    dropParam(PAYMENT_PARAM.payNow);
  }, [payNow, unpaid, begin, dropParam]);

  const returned = outcome === 'success';
  const alreadyPaid = returned && !unpaid;
  const status = usePaymentStatusPolling(order.id, {
    enabled: returned && !alreadyPaid && !timedOut,
    intervalMs: PAYMENT_CONFIRM_POLL_MS,
  });
  const answer = status.data?.status;
  const paid = alreadyPaid || answer === 'paid';
  const waiting = returned && !paid && answer !== 'declined' && answer !== 'none';

  useEffect(() => {
    if (!waiting) return undefined;
    const timer = window.setTimeout(() => {
      setTimedOut(true);
      dropParam(PAYMENT_PARAM.outcome);
    }, PAYMENT_CONFIRM_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [waiting, dropParam]);

  // Settled (paid, or no attempt at all): the outcome leaves the address bar, and a paid order is refreshed once.
  const settled = returned && (paid || answer === 'none');
  const settledHandled = useRef(false);
  useEffect(() => {
    if (!settled || settledHandled.current) return;
    settledHandled.current = true;
    if (answer === 'paid') onPaid();
    dropParam(PAYMENT_PARAM.outcome);
  }, [settled, answer, onPaid, dropParam]);

  const failed = !errorClosed && (outcome === 'fail' || (returned && answer === 'declined'));
  const closeError = () => {
    setErrorClosed(true);
    dropParam(PAYMENT_PARAM.outcome);
  };

  return (
    <>
      {waiting && !timedOut && (
        <div role="status" className="flex items-center gap-3 rounded-md border border-sky-300 bg-sky-50 p-3 text-sm text-sky-950">
          <Spinner className="size-5 shrink-0" />
          <div className="flex flex-col gap-0.5">
            <p className="font-semibold">Confirming your payment…</p>
            <p>The payment system is telling us about it. This takes a few seconds; there is no need to pay again.</p>
          </div>
        </div>
      )}
      {returned && paid && <Alert tone="success" title="Thank you, your payment has been received" />}
      {waiting && timedOut && (
        <Alert tone="warning" title="Your payment is still being confirmed">
          The payment system has not confirmed it yet. The order shows paid as soon as it does; refresh this page in a few minutes.
        </Alert>
      )}
      <PaymentErrorDialog
        open={failed}
        onOpenChange={(open) => {
          if (!open) closeError();
        }}
        order={order}
        multipayment={settings.multipayment}
        onContactSupport={() => setErrorClosed(true)}
        onChooseAlternative={() => {
          closeError();
          flow.begin();
        }}
      />
      <PaymentChooser flow={flow} orderId={order.id} />
      <RedirectNotice show={flow.leaving} />
    </>
  );
}
