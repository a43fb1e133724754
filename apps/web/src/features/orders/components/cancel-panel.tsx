import { lazy, Suspense, useId, useState } from 'react';
import { CircleSlash, Scale } from 'lucide';
import type { OrderDetail } from '@app/domain/order';
import type { Dispute } from '@app/domain/dispute';
import { cancelQuoteText, disputeOutcomeLabel, disputeReasonLabel } from '@app/domain/dispute/rules';
import { formatUsd } from '@app/domain/money';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { formatDateTime } from '@/lib/dates';
import { useCancellationQuote, useDisputes } from '../api/cancel-dispute';

const cents = (amount: number): number => Math.round(amount * 100);

// ADR 0101: the forms load when opened (react-hook-form stays off the order page's first paint).
const CancelDialog = lazy(() => import('./cancel-dialogs').then((m) => ({ default: m.CancelDialog })));
const DisputeDialog = lazy(() => import('./cancel-dialogs').then((m) => ({ default: m.DisputeDialog })));

/** ADR 0087: a dispute and, once support answered, its outcome. */
function DisputeCard({ dispute }: { dispute: Dispute }) {
  const r = dispute.resolution;
  return (
    <li className="flex flex-col gap-1 rounded-md border border-slate-200 bg-white p-3 text-sm">
      <p className="font-medium text-slate-900">
        Dispute #{dispute.id}: {disputeReasonLabel(dispute.reason)}
      </p>
      <p className="break-words whitespace-pre-line text-slate-700">{dispute.description}</p>
      {dispute.files.length > 0 && <p className="text-slate-700">Files: {dispute.files.map((f) => f.name).join(', ')}</p>}
      {r === null ? (
        <p className="text-slate-800">
          <span className="font-medium">Open.</span> Support answers by {formatDateTime(dispute.answerBy)}
          {dispute.requestedRefund !== null && <> · you asked for {formatUsd(cents(dispute.requestedRefund))} back</>}.
        </p>
      ) : (
        <div className="text-slate-800">
          <p>
            <span className="font-medium">Resolved: {disputeOutcomeLabel(r.outcome)}</span>
            {r.amount !== null && <>, {formatUsd(cents(r.amount))} refunded</>}
            {r.deadline !== null && <>, new deadline {formatDateTime(r.deadline)}</>} ({formatDateTime(r.resolvedAt)})
          </p>
          <p className="break-words whitespace-pre-line">Support: {r.message}</p>
        </div>
      )}
    </li>
  );
}

/**
 * ADR 0087, CONTRACT "After payment": what a cancel would return now, for the order's stage, and where it
 * goes; the cancel (immediate before work) or the request, and disputes with support's outcome.
 */
export function CancelPanel({ order }: { order: OrderDetail }) {
  const headingId = useId();
  const quote = useCancellationQuote(order.id);
  const disputes = useDisputes(order.id);
  const [cancelOpen, setCancelOpen] = useState(false);
  const [disputeOpen, setDisputeOpen] = useState(false);
  if (!quote.data) return null;
  const q = quote.data;
  const list = disputes.data?.disputes ?? [];
  const openDisputeNow = list.some((d) => d.status === 'open');
  if (q.stage === 'closed' && list.length === 0) return null;
  const canDispute = q.stage === 'in_progress' || q.stage === 'delivered' || (q.stage === 'before_work' && q.refund > 0);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-slate-50 p-4">
      <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <Icon icon={q.stage === 'delivered' ? Scale : CircleSlash} className="size-5 shrink-0 text-slate-600" />
        {q.stage === 'delivered' ? 'A problem with this order?' : 'Cancel or dispute'}
      </h2>
      {q.stage !== 'closed' && (
        <p className="text-sm text-slate-800" data-testid="cancel-quote">
          {cancelQuoteText(
            { stage: q.stage, allowed: q.allowed, refundCents: cents(q.refund), action: q.action },
            q.inProgressRefundPercent,
          )}
          {q.refund > 0 && q.destination && <> The money goes back to {q.destination}.</>}
        </p>
      )}
      {list.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Disputes">
          {list.map((d) => (
            <DisputeCard key={d.id} dispute={d} />
          ))}
        </ul>
      )}
      {q.stage !== 'closed' && !openDisputeNow && (
        <div className="flex flex-wrap gap-2">
          {q.allowed && (
            <Button variant="secondary" onClick={() => setCancelOpen(true)}>
              {q.action === 'cancel' ? 'Cancel order' : 'Ask to cancel'}
            </Button>
          )}
          {canDispute && (
            <Button variant="secondary" onClick={() => setDisputeOpen(true)}>
              Open a dispute
            </Button>
          )}
        </div>
      )}
      <Suspense fallback={null}>
        {cancelOpen && <CancelDialog orderId={order.id} quote={q} open={cancelOpen} onOpenChange={setCancelOpen} />}
        {disputeOpen && <DisputeDialog orderId={order.id} open={disputeOpen} onOpenChange={setDisputeOpen} />}
      </Suspense>
    </section>
  );
}
