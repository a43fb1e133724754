import { isPaymentSystem, RECONCILE_MAX_CHECKS, nextReconcileDelayMs, type PaymentSystem } from '@app/domain';
import type { Logger } from '../../lib/logger';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createPaymentsRepo, type PaymentRow } from './payments.repo';
import { createReconcileRepo } from './payments.reconcile.repo';
import type { Providers } from './providers';
import type { PaymentEvent } from './providers/types';
import { createPeriodicJob } from '../../lib/periodic-job';

/** How many due attempts one run claims. */
const BATCH = 20;

export interface ReconcilerDeps {
  db: Db;
  providers: Providers;
  /** The callbacks' exactly-once path (payments.service applyEvent). */
  applyEvent: (input: { provider: PaymentSystem; event: PaymentEvent }) => Promise<{ changed: boolean }>;
  clock: Clock;
  log: Logger;
  /** An attempt open this long is asked about (PAYMENTS_RECONCILE_AFTER_MINUTES). */
  afterMs: number;
  /** How often the job runs (PAYMENTS_RECONCILE_INTERVAL_SECONDS); 0: never on its own. */
  intervalMs: number;
}

type Outcome = 'settled' | 'open' | 'support';

/**
 * ADR 0037: attempts left open (the buyer closed the provider's page, a callback
 * never came) are asked about at their provider where its API allows, and the answer goes through the
 * same exactly-once path as a callback. The job's state lives on the attempt rows, so a restart, or
 * another instance, resumes where the last run stopped.
 */
export const createReconciler = ({ db, providers, applyEvent, clock, log, afterMs, intervalMs }: ReconcilerDeps) => {
  const repo = createPaymentsRepo(db);
  const reconcile = createReconcileRepo(db);

  /** What the provider says now about the attempt, or null when it cannot say. */
  const ask = async (payment: PaymentRow): Promise<PaymentEvent | null | 'no-api'> => {
    if (payment.sandbox) {
      // The sandbox's "provider" is our own record: still open means nobody chose Pay or Decline, and the
      // sandbox lets it expire the way Fondy and paycore.io expire an unpaid order.
      return { eventId: `sandbox-expired:${payment.id}`, paymentId: payment.id, status: 'declined', amountCents: null, currency: null };
    }
    // A payment recorded by hand is settled when recorded; it is never open (ADR 0071).
    if (!isPaymentSystem(payment.provider)) return 'no-api';
    const adapter = providers[payment.provider];
    // Every adapter has a status query now (ADR 0058); one without would be left to support.
    if (!adapter.queryStatus) return 'no-api';
    return adapter.queryStatus(payment);
  };

  const check = async (id: string, checks: number): Promise<Outcome> => {
    const payment = await repo.find(id);
    if (!payment || (payment.state !== 'created' && payment.state !== 'pending')) return 'settled';
    const now = clock.now();
    let answer: PaymentEvent | null | 'no-api';
    let failed = false;
    try {
      answer = await ask(payment);
    } catch (error) {
      log.warn({ err: error, provider: payment.provider, paymentId: payment.id }, 'reconciliation: the provider did not answer');
      answer = null;
      failed = true;
    }
    if (answer === 'no-api') {
      await reconcile.handToSupport({ id: payment.id, now, reason: 'no_status_api' });
      log.warn(
        { provider: payment.provider, paymentId: payment.id, orderId: payment.orderId },
        'reconciliation: an open attempt the provider cannot be asked about is left to support',
      );
      return 'support';
    }
    if (answer && answer.paymentId === payment.id) {
      try {
        if (isPaymentSystem(payment.provider)) await applyEvent({ provider: payment.provider, event: answer });
      } catch (error) {
        log.warn({ err: error, provider: payment.provider, paymentId: payment.id }, 'reconciliation: the provider answer was refused');
        failed = true;
      }
    }
    const after = await repo.find(payment.id);
    if (!after || (after.state !== 'created' && after.state !== 'pending')) return 'settled';
    if (checks >= RECONCILE_MAX_CHECKS) {
      const reason = failed ? 'provider_error' : 'still_open';
      await reconcile.handToSupport({ id: payment.id, now, reason });
      log.warn(
        { provider: payment.provider, paymentId: payment.id, orderId: payment.orderId, checks, reason },
        'reconciliation: still open after every check, left to support',
      );
      return 'support';
    }
    await reconcile.schedule(payment.id, new Date(now.getTime() + nextReconcileDelayMs(checks, afterMs)));
    return 'open';
  };

  /** One run: claims the due attempts and checks each; returns how many were checked. */
  const runOnce = async (): Promise<number> => {
    const now = clock.now();
    // The claim's lease: if this process dies before the answer, the attempt is due again after it.
    const claimed = await db.transaction((tx) =>
      createReconcileRepo(tx).claimDue({ now, afterMs, nextAt: new Date(now.getTime() + afterMs), limit: BATCH }),
    );
    for (const { id, checks } of claimed) {
      try {
        await check(id, checks);
      } catch (error) {
        log.error({ err: error, paymentId: id }, 'reconciliation of an attempt failed');
      }
    }
    return claimed.length;
  };

  // The attempts' due times are in the database, so a restart resumes the job (ADR 0037).
  const job = createPeriodicJob({ intervalMs, run: runOnce, log, failure: 'reconciliation run failed' });
  return {
    runOnce,
    /** Starts the periodic runs (the app's onReady); nothing when the interval is 0. */
    start: job.start,
    /** Stops them and waits for a run in progress (the app's onClose). */
    stop: job.stop,
  };
};
