import {
  AUDIT_ACTION,
  centsToAmount,
  type PaymentAttentionList,
  type PaymentAttentionOutcome,
  type PaymentAttentionResolved,
} from '@app/domain';
import type { Logger } from '../../lib/logger';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createAttentionRepo } from './payments.attention.repo';
import { createPaymentsRepo } from './payments.repo';
import { createSettleRepo } from './payments.settle.repo';
import { notFound } from '../../lib/errors';
import { recordAudit } from '../audit';

/**
 * ADR 0058: support's queue of attempts the reconciliation job (ADR 0037) could not settle, and
 * the action that takes one off it. Declining goes the callbacks' way: one stored event
 * (`support-declined:<id>`, once), a forward-only state move, the order's pending flag recomputed; money
 * that still arrives for it later is parked (ADR 0034), never applied to a changed order, never lost.
 */
export const createPaymentAttention = ({ db, clock, log }: { db: Db; clock: Clock; log: Logger }) => ({
  async list(): Promise<PaymentAttentionList> {
    const rows = await createAttentionRepo(db).list();
    return {
      attempts: rows.map((r) => ({
        paymentId: r.paymentId,
        orderId: r.orderId,
        customerId: r.customerId,
        customerEmail: r.customerEmail,
        provider: r.provider,
        amount: centsToAmount(r.amountCents),
        currency: r.currency,
        state: r.state,
        reason: r.reason,
        checks: r.checks,
        sandbox: r.sandbox,
        createdAt: r.createdAt.toISOString(),
        since: r.since.toISOString(),
      })),
    };
  },

  /** Marks a flagged attempt resolved (404 when it is not on the list: unknown, not flagged, resolved already). */
  async resolve({
    paymentId,
    outcome,
    staffId,
    staffRole = null,
  }: {
    paymentId: string;
    outcome: PaymentAttentionOutcome;
    staffId: number;
    /** ADR 0090: the audit entry's role (support or admin) */
    staffRole?: number | null;
  }): Promise<PaymentAttentionResolved> {
    return db.transaction(async (tx) => {
      const attention = createAttentionRepo(tx);
      const flagged = await attention.lockFlagged(paymentId);
      if (!flagged) throw notFound();
      const now = clock.now();
      let state = flagged.state;
      if (outcome === 'declined' && (state === 'created' || state === 'pending')) {
        const payments = createPaymentsRepo(tx);
        await payments.insertEvent({
          provider: flagged.provider,
          eventId: `support-declined:${paymentId}`,
          paymentId,
          status: 'declined',
          applied: true,
          now,
        });
        if (await payments.moveState({ id: paymentId, from: state, to: 'declined', now })) state = 'declined';
        await createSettleRepo(tx).refreshPending(flagged.orderId, now);
      }
      await attention.markResolved({ paymentId, outcome, staffId, now });
      // ADR 0090: the audit entry in the resolution's transaction.
      await recordAudit(tx, {
        actor: { userId: staffId, role: staffRole },
        action: AUDIT_ACTION.paymentAttention,
        orderId: flagged.orderId,
        before: { paymentId, state: flagged.state, flagged: true },
        after: { paymentId, state, flagged: false, outcome },
        at: now,
      });
      log.info(
        { paymentId, orderId: flagged.orderId, provider: flagged.provider, outcome, state, staffId },
        'stale payment attempt resolved by support',
      );
      return { paymentId, outcome, state, resolvedAt: now.toISOString() };
    });
  },
});
export type PaymentAttention = ReturnType<typeof createPaymentAttention>;
