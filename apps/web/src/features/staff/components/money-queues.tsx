import { useId, useState, type ReactNode } from 'react';
import { PROVIDER_NAME, UNAPPLIED_REASON_NAME } from '@app/domain/staff/rules';
import { inputClass } from '@/components/ui/input';
import { Link } from 'wouter';
import { amountToCents, formatUsd } from '@app/domain/money';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import {
  useApplyUnapplied,
  useMarkRefunded,
  usePaymentAttention,
  useRefundClaims,
  useRefundUnapplied,
  useResolveAttention,
  useUnappliedPayments,
} from '../api/money';

const money = (amount: number, currency: string) =>
  currency === 'USD' ? formatUsd(amountToCents(amount)) : `${amount.toFixed(2)} ${currency}`;

const reasonText = (reason: string) => reason.replace(/[-_]/g, ' ');

/** One queue: its heading, its loading, error and empty states, and its rows. */
export function MoneySection<T>({
  title,
  description,
  query,
  rows,
  empty,
  render,
}: {
  title: string;
  description: string;
  query: { isPending: boolean; isError: boolean; error: unknown };
  rows: readonly T[] | undefined;
  empty: string;
  render: (row: T) => ReactNode;
}) {
  const headingId = `money-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div>
        <h2 id={headingId} className="text-lg font-semibold">
          {title}
          {rows && <span className="ml-2 rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-900">{rows.length}</span>}
        </h2>
        <p className="text-sm text-slate-700">{description}</p>
      </div>
      {query.isPending ? (
        <div className="flex items-center gap-2 text-sm" role="status">
          <Spinner /> Loading…
        </div>
      ) : query.isError ? (
        <Alert tone="error" title={`${title} could not be loaded`}>
          {errorMessage(query.error)}
        </Alert>
      ) : !rows || rows.length === 0 ? (
        <p className="text-sm text-slate-700">{empty}</p>
      ) : (
        <ul aria-label={title} className="flex flex-col divide-y divide-slate-200">
          {rows.map(render)}
        </ul>
      )}
    </section>
  );
}

// Underlined: a link inside a line of text is not told apart by its colour alone (WCAG 1.4.1, axe link-in-text-block).
export const OrderLink = ({ orderId }: { orderId: number }) => (
  <Link to={paths.staffOrder(orderId)} className="underline">
    Order #{orderId}
  </Link>
);

/** ADR 0089: a provider and a reason as support reads them. */
const providerName = (provider: string) => PROVIDER_NAME[provider] ?? provider;

/**
 * ADR 0035, 0089: money that arrived and did not settle its order. Apply it (when it is what the order asks
 * now: the order is paid) or refund it (the one refund use case), each confirmed.
 */
export function UnappliedPayments() {
  const query = useUnappliedPayments();
  const apply = useApplyUnapplied();
  const refund = useRefundUnapplied();
  const reasonId = useId();
  const [confirming, setConfirming] = useState<{ kind: 'apply' | 'refund'; paymentId: string; label: string } | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const close = () => {
    setConfirming(null);
    setReason('');
    setReasonError(null);
  };
  const onConfirm = () => {
    if (!confirming) return;
    if (confirming.kind === 'apply') {
      apply.mutate(confirming.paymentId, {
        onSuccess: () => toast.success('Payment applied: the order is paid'),
        onError: (error) => toast.error(errorMessage(error)),
        onSettled: close,
      });
      return;
    }
    if (reason.trim() === '') {
      setReasonError('Enter the reason');
      return;
    }
    refund.mutate(
      { paymentId: confirming.paymentId, reason: reason.trim() },
      {
        onSuccess: () => toast.success('Payment refunded'),
        onError: (error) => toast.error(errorMessage(error)),
        onSettled: close,
      },
    );
  };
  return (
    <>
      <MoneySection
        title="Unapplied payments"
        description="Money that arrived and did not settle its order, oldest first. Apply it to its order when it is what the order asks now, or refund it."
        query={query}
        rows={query.data?.payments}
        empty="No unapplied payments."
        render={(p) => {
          const label = `${money(p.amount, p.currency)} via ${providerName(p.provider)} for order #${p.orderId}`;
          return (
            <li key={p.paymentId} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-2 text-sm">
              <span className="flex min-w-0 flex-col">
                <span className="font-medium">
                  {money(p.amount, p.currency)} via {providerName(p.provider)} · <OrderLink orderId={p.orderId} />
                </span>
                <span className="break-words text-slate-700">
                  {p.customerEmail} · {UNAPPLIED_REASON_NAME[p.reason] ?? reasonText(p.reason)} · {formatDateTime(p.receivedAt)}
                </span>
              </span>
              <span className="flex gap-2">
                <Button
                  variant="secondary"
                  aria-label={`Apply: ${label}`}
                  onClick={() => setConfirming({ kind: 'apply', paymentId: p.paymentId, label })}
                >
                  Apply
                </Button>
                <Button
                  variant="secondary"
                  aria-label={`Refund: ${label}`}
                  onClick={() => setConfirming({ kind: 'refund', paymentId: p.paymentId, label })}
                >
                  Refund
                </Button>
              </span>
            </li>
          );
        }}
      />
      <Dialog
        open={confirming !== null}
        onOpenChange={(open) => !open && close()}
        title={confirming?.kind === 'apply' ? 'Apply this payment?' : 'Refund this payment?'}
      >
        <div className="flex flex-col gap-4">
          <p>
            {confirming?.label}.{' '}
            {confirming?.kind === 'apply'
              ? 'It pays the order when it is exactly what the order asks now; the customer gets the receipt.'
              : 'Refund it at the provider too. The customer’s transactions show the refund with its credit note; the order stays as it is.'}
          </p>
          {confirming?.kind === 'refund' && (
            <div className="flex flex-col gap-1">
              <label htmlFor={reasonId} className="text-sm font-medium text-slate-800">
                Reason
              </label>
              <textarea
                id={reasonId}
                className={`${inputClass} min-h-20`}
                maxLength={500}
                value={reason}
                aria-invalid={reasonError ? true : undefined}
                aria-describedby={reasonError ? `${reasonId}-error` : undefined}
                onChange={(event) => setReason(event.target.value)}
              />
              {reasonError && (
                <p id={`${reasonId}-error`} className="text-sm text-red-700">
                  {reasonError}
                </p>
              )}
            </div>
          )}
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Keep it
            </Button>
            <Button busy={apply.isPending || refund.isPending} onClick={onConfirm}>
              {confirming?.kind === 'apply' ? 'Apply payment' : 'Refund payment'}
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}

/** ADR 0035: refunds forced edits owe; support refunds at the provider, then marks the claim here. */
export function RefundClaims() {
  const query = useRefundClaims();
  const mark = useMarkRefunded();
  const [confirming, setConfirming] = useState<{ id: number; label: string } | null>(null);
  return (
    <>
      <MoneySection
        title="Refund claims"
        description="What forced edits owe back, oldest first. Refund at the provider, then mark the claim refunded."
        query={query}
        rows={query.data?.claims}
        empty="No open refund claims."
        render={(c) => (
          <li key={c.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-2 text-sm">
            <span className="flex flex-col">
              <span className="font-medium">
                {money(c.amount, c.currency)} · <OrderLink orderId={c.orderId} />
              </span>
              <span className="text-slate-700">
                {c.customerEmail} · since {formatDateTime(c.createdAt)}
              </span>
            </span>
            <Button
              variant="secondary"
              aria-label={`Mark the refund of ${money(c.amount, c.currency)} for order #${c.orderId} as refunded`}
              onClick={() => setConfirming({ id: c.id, label: `${money(c.amount, c.currency)} for order #${c.orderId}` })}
            >
              Mark refunded
            </Button>
          </li>
        )}
      />
      <Dialog open={confirming !== null} onOpenChange={(open) => !open && setConfirming(null)} title="Mark refunded?">
        <div className="flex flex-col gap-4">
          <p>
            Only after the money went back at the provider: {confirming?.label}. The customer’s transactions show the refund and the claim
            closes.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button
              busy={mark.isPending}
              onClick={() => {
                if (!confirming) return;
                mark.mutate(confirming.id, {
                  onSuccess: () => toast.success('Refund recorded'),
                  onError: (error) => toast.error(errorMessage(error)),
                  onSettled: () => setConfirming(null),
                });
              }}
            >
              Mark refunded
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}

const ATTENTION_REASON: Record<string, string> = {
  no_status_api: 'the provider cannot be asked',
  provider_error: 'the provider’s status check failed',
  still_open: 'still open at the provider',
};

/** ADR 0058: stale payment attempts flagged for support; support checks the provider, then resolves. */
export function PaymentAttention() {
  const query = usePaymentAttention();
  const resolve = useResolveAttention();
  const [confirming, setConfirming] = useState<{ paymentId: string; label: string } | null>(null);
  const act = (paymentId: string, outcome: 'declined' | 'kept_open') =>
    resolve.mutate(
      { paymentId, outcome },
      {
        onSuccess: () => toast.success(outcome === 'declined' ? 'Attempt declined' : 'Attempt kept open'),
        onError: (error) => toast.error(errorMessage(error)),
        onSettled: () => setConfirming(null),
      },
    );
  return (
    <>
      <MoneySection
        title="Payment attempts to check"
        description="Attempts left open that the reconciliation job could not settle, oldest flag first. Check the provider, then resolve."
        query={query}
        rows={query.data?.attempts}
        empty="No payment attempts need a look."
        render={(a) => {
          const label = `${money(a.amount, a.currency)} via ${providerName(a.provider)} for order #${a.orderId}`;
          return (
            <li key={a.paymentId} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 py-2 text-sm">
              <span className="flex flex-col">
                <span className="font-medium">
                  {money(a.amount, a.currency)} via {providerName(a.provider)}
                  {a.sandbox ? ' (sandbox)' : ''} · <OrderLink orderId={a.orderId} />
                </span>
                <span className="text-slate-700">
                  {a.customerEmail} · {a.state}, {ATTENTION_REASON[a.reason] ?? a.reason} · flagged {formatDateTime(a.since)}
                </span>
              </span>
              <span className="flex gap-2">
                <Button
                  variant="secondary"
                  aria-label={`Keep open: ${label}`}
                  disabled={resolve.isPending}
                  onClick={() => act(a.paymentId, 'kept_open')}
                >
                  Keep open
                </Button>
                <Button
                  variant="secondary"
                  aria-label={`Decline: ${label}`}
                  onClick={() => setConfirming({ paymentId: a.paymentId, label })}
                >
                  Decline
                </Button>
              </span>
            </li>
          );
        }}
      />
      <Dialog open={confirming !== null} onOpenChange={(open) => !open && setConfirming(null)} title="Decline this attempt?">
        <div className="flex flex-col gap-4">
          <p>
            Only when the provider shows that no money came: {confirming?.label}. Money that still arrives for it later is parked in
            Unapplied payments.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Cancel
            </Button>
            <Button busy={resolve.isPending} onClick={() => confirming && act(confirming.paymentId, 'declined')}>
              Decline attempt
            </Button>
          </div>
        </div>
      </Dialog>
    </>
  );
}
