import { randomBytes } from 'node:crypto';
import {
  DomainError,
  ERROR_CODE,
  centsToAmount,
  isPaymentSystem,
  orderCharge,
  PAYMENT_CURRENCY,
  PAYMENT_STATUS_QUERY_AFTER_MS,
  PAYMENT_UNAVAILABLE_MESSAGE,
  allowedPaymentSystems,
  nextPaymentState,
  PAYMENT_KIND,
  paymentReturnStatus,
  type OrderCharge,
  type PaymentStatusView,
  type PaymentSystem,
} from '@app/domain';
import type { Logger } from '../../lib/logger';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createPaymentsRepo, type PayableOrder, type PaymentRow, type PaymentsRepo } from './payments.repo';
import { upgradeCharge } from './payments.upgrades';
import { createUpgradesRepo } from './payments.upgrades.repo';
import { applyProviderRefund } from './payments.refunds';
import { settlePaid } from './payments.settle';
import { createSettleRepo } from './payments.settle.repo';
import type { Providers } from './providers';
import {
  ProviderUnavailableError,
  SignatureError,
  type CallbackAnswer,
  type CallbackRequest,
  type PaymentEvent,
  type SandboxCallback,
  type SandboxOutcome,
} from './providers/types';
import { notFound } from '../../lib/errors';

const orderPage = (orderId: number) => `/orderinfo/${orderId}/details`;
/**
 * Where a buyer comes back to: the order page with `?payment=success|fail`, or, for an upgrade's attempt
 * (ADR 0086), `?upgrade=success|fail` (the order was paid before: its own payment status says nothing of this one).
 */
const returnPage = (payment: Pick<PaymentRow, 'orderId' | 'kind'>, ok: boolean): string =>
  `${orderPage(payment.orderId)}?${payment.kind === PAYMENT_KIND.upgrade ? 'upgrade' : 'payment'}=${ok ? 'success' : 'fail'}`;

export interface PaymentsServiceDeps {
  db: Db;
  repo: PaymentsRepo;
  providers: Providers;
  clock: Clock;
  log: Logger;
  origin: string;
  /** ADR 0036: whether the deployment offers this provider (payments.sandbox-policy.ts); default: every one. */
  available?: (provider: PaymentSystem) => boolean;
}

export const createPaymentsService = ({ db, repo, providers, clock, log, origin, available = () => true }: PaymentsServiceDeps) => {
  /** A provider the deployment does not offer (no credentials in production): its routes refuse (ADR 0036). */
  const requireAvailable = (provider: PaymentSystem): void => {
    if (!available(provider)) throw notFound(PAYMENT_UNAVAILABLE_MESSAGE);
  };

  /**
   * Applies one verified event exactly once (ADR 0024): the event id is stored in the same transaction
   * as the forward-only state change; a paid attempt writes one transaction row and moves an unpaid
   * order to paid once.
   */
  const applyEvent = async ({ provider, event }: { provider: PaymentSystem; event: PaymentEvent }): Promise<{ changed: boolean }> =>
    db.transaction(async (tx) => {
      const txRepo = createPaymentsRepo(tx);
      const now = clock.now();
      const payment = await txRepo.lock(event.paymentId, provider);
      if (!payment) throw notFound();
      // ADR 0034: a paid event settles the order only with exactly what it asks now, or is parked.
      if (event.status === 'paid') return settlePaid(tx, { provider, payment, event, now, log });
      // The server alone fixed the amount; a message about another amount or currency is refused whole.
      const amountOk =
        event.amountCents === null ||
        (event.status === 'refunded'
          ? event.amountCents > 0 && event.amountCents <= payment.amountCents
          : event.amountCents === payment.amountCents);
      const currencyOk = event.currency === null || event.currency.toUpperCase() === payment.currency;
      if (!amountOk || !currencyOk) {
        log.warn({ provider, paymentId: payment.id, eventId: event.eventId }, 'payment callback amount or currency mismatch');
        throw new DomainError(ERROR_CODE.badRequest, 'The amount or currency does not match the payment');
      }
      const next = nextPaymentState(payment.state, event.status);
      const fresh = await txRepo.insertEvent({
        provider,
        eventId: event.eventId,
        paymentId: payment.id,
        status: event.status,
        applied: next !== null,
        now,
      });
      if (!fresh || next === null) return { changed: false };
      if (!(await txRepo.moveState({ id: payment.id, from: payment.state, to: next, now }))) return { changed: false };
      // An upgrade's attempt (ADR 0086) leaves the paid order's `pending` flag alone.
      const ownPrice = payment.kind !== PAYMENT_KIND.upgrade;
      if (next === 'declined') {
        if (ownPrice) await txRepo.setOrderPending({ orderId: payment.orderId, pending: false, now });
      } else if (next === 'pending') {
        if (ownPrice) await txRepo.setOrderPending({ orderId: payment.orderId, pending: true, now });
      } else if (next === 'refunded') {
        await applyProviderRefund(tx, { provider, payment, event, now, log });
      }
      return { changed: true };
    });

  /** Applies what a verified status query said; a provider outage leaves the attempt as it was. */
  const applyQueried = async (payment: PaymentRow, query: (p: PaymentRow) => Promise<PaymentEvent | null>): Promise<void> => {
    try {
      const event = await query(payment);
      if (event && event.paymentId === payment.id && isPaymentSystem(payment.provider))
        await applyEvent({ provider: payment.provider, event });
    } catch (error) {
      log.warn({ err: error, paymentId: payment.id }, 'payment status query failed');
    }
  };

  const sandboxPayment = async (provider: PaymentSystem, paymentId: string): Promise<PaymentRow> => {
    requireAvailable(provider);
    const payment = await repo.find(paymentId);
    if (!payment || payment.provider !== provider || !payment.sandbox || !providers[provider].sandbox) throw notFound();
    return payment;
  };

  /** Stores the attempt, then asks the provider for its page (the order's checkout and an upgrade's alike). */
  const launch = async ({
    provider,
    order,
    charge,
    hashDevice,
    upgradeId,
  }: {
    provider: PaymentSystem;
    order: PayableOrder;
    charge: OrderCharge;
    hashDevice: string;
    upgradeId?: string;
  }): Promise<string> => {
    const adapter = providers[provider];
    const payment = await db.transaction((tx) =>
      createPaymentsRepo(tx).insertAttempt({
        id: randomBytes(18).toString('base64url'),
        order,
        charge,
        provider,
        currency: PAYMENT_CURRENCY,
        sandbox: adapter.sandbox,
        hashDevice,
        now: clock.now(),
        ...(upgradeId === undefined ? {} : { upgradeId }),
      }),
    );
    const back = `${origin}${orderPage(order.id)}`;
    const param = upgradeId === undefined ? 'payment' : 'upgrade';
    try {
      const created = await adapter.createPayment({
        payment,
        order: { id: order.id, uid: order.uid, title: order.title },
        returnUrls: {
          success: `${back}?${param}=success`,
          fail: `${back}?${param}=fail`,
          callback: `${origin}/api/payments/${provider}/callback`,
          capture: `${origin}/pp/sdk/return?payment=${encodeURIComponent(payment.id)}`,
          serverReturn: `${origin}/payments/${encodeURIComponent(payment.id)}/return`,
        },
      });
      if (created.providerRef) await repo.setProviderRef(payment.id, created.providerRef);
      return created.redirectUrl;
    } catch (error) {
      // SPEC §8: the buyer sees the payment error (and may choose another way to pay).
      if (error instanceof ProviderUnavailableError) {
        // ADR 0074: no answer (or a 5xx): whether the provider started the payment is unknown. The attempt
        // stays open; the reconciliation job asks the provider about it later and applies its answer once.
        log.warn(
          { provider, paymentId: payment.id, reason: error.message },
          'the payment provider did not answer: the attempt is left open',
        );
        // The buyer is not at the provider: the order is not pending, so another way to pay is offered.
        if (upgradeId === undefined) await repo.setOrderPending({ orderId: order.id, pending: false, now: clock.now() });
      } else {
        log.error({ err: error, provider, paymentId: payment.id }, 'the payment provider refused to start a payment');
        await applyEvent({
          provider,
          event: { eventId: `start-failed:${payment.id}`, paymentId: payment.id, status: 'declined', amountCents: null, currency: null },
        });
      }
      return returnPage(payment, false);
    }
  };

  return {
    applyEvent,

    /**
     * SPEC §7 payment redirect: a new attempt for an unpaid order with the amount the order stores,
     * then the provider's page. A paid (or otherwise settled) order goes back to its page.
     */
    async startCheckout({ provider, uid, hashDevice }: { provider: PaymentSystem; uid: string; hashDevice: string }): Promise<string> {
      requireAvailable(provider);
      const order = await repo.findOrderByUid(uid);
      if (!order) throw notFound();
      // ADR 0034: the whole price of an unpaid order, or exactly the difference a forced edit left due.
      const charge = orderCharge(order);
      if (!charge) return orderPage(order.id);
      const allowed = allowedPaymentSystems(await repo.paymentsRules(), order.siteCategory, order.workTypeId);
      if (!allowed.includes(provider)) throw notFound();
      return launch({ provider, order, charge, hashDevice });
    },

    /**
     * ADR 0086: `/checkout/{provider}/upgrade/{upgradeId}`: a new attempt for the difference of an open
     * upgrade, then the provider's page, the way an order's checkout goes. An upgrade that is no longer
     * payable (applied, superseded, its order moved on) goes back to the order page and charges nothing.
     */
    async startUpgradeCheckout({
      provider,
      upgradeId,
      hashDevice,
    }: {
      provider: PaymentSystem;
      upgradeId: string;
      hashDevice: string;
    }): Promise<string> {
      requireAvailable(provider);
      const upgrades = createUpgradesRepo(db);
      const upgrade = await upgrades.find(upgradeId);
      const order = upgrade ? await upgrades.order(upgrade.orderId) : null;
      if (!upgrade || !order) throw notFound();
      const charge = upgradeCharge(upgrade, order, clock.now());
      if (!charge) return `${orderPage(order.id)}?upgrade=closed`;
      const allowed = allowedPaymentSystems(await repo.paymentsRules(), order.siteCategory, order.workType);
      if (!allowed.includes(provider)) throw notFound();
      const payable: PayableOrder = { ...order, workTypeId: order.workType };
      return launch({ provider, order: payable, charge, hashDevice, upgradeId: upgrade.id });
    },

    /** POST /api/payments/{provider}/callback: verified, then applied once; 403 for a bad signature. */
    async handleCallback({ provider, request }: { provider: PaymentSystem; request: CallbackRequest }): Promise<CallbackAnswer> {
      requireAvailable(provider);
      const adapter = providers[provider];
      let event: PaymentEvent | null;
      try {
        event = await adapter.verifyCallback(request);
      } catch (error) {
        if (error instanceof SignatureError) {
          log.warn({ provider }, 'payment callback refused: bad signature');
          throw new DomainError(ERROR_CODE.forbidden, error.message);
        }
        throw error;
      }
      if (event) await applyEvent({ provider, event });
      return adapter.callbackAnswer;
    },

    /** Where a browser the provider sent back (by GET or POST) goes: the order page; the page checks the status. */
    async returnLocation({ paymentId }: { paymentId: string }): Promise<string> {
      const payment = await repo.find(paymentId);
      if (!payment) throw notFound();
      return returnPage(payment, payment.state !== 'declined');
    },

    /** PayPal's return_url: capture the approved order (a verified answer of PayPal's API), then the order page. */
    async paypalReturn({ paymentId }: { paymentId: string }): Promise<string> {
      const payment = await repo.find(paymentId);
      if (!payment || payment.provider !== 'paypal') throw notFound();
      const capture = providers.paypal.capture;
      if (capture && (payment.state === 'created' || payment.state === 'pending'))
        await applyQueried(payment, (p) => capture.call(providers.paypal, p));
      const after = (await repo.find(paymentId)) ?? payment;
      return returnPage(payment, after.state !== 'declined');
    },

    /**
     * GET /api/en/orders/{id}/payment: what the return page shows. An attempt left pending for a few
     * seconds is asked about at its provider, when the provider can answer (not in sandbox mode).
     */
    async paymentStatus({ customerId, orderId }: { customerId: number; orderId: number }): Promise<PaymentStatusView> {
      let found = await repo.orderPayments(customerId, orderId);
      if (!found) throw notFound();
      const newest = found.attempts[0];
      const adapter = newest && isPaymentSystem(newest.provider) ? providers[newest.provider] : undefined;
      const query = adapter?.queryStatus;
      if (
        newest &&
        adapter &&
        query &&
        !newest.sandbox &&
        (newest.state === 'created' || newest.state === 'pending') &&
        clock.now().getTime() - newest.createdAt.getTime() >= PAYMENT_STATUS_QUERY_AFTER_MS
      ) {
        await applyQueried(newest, (p) => query.call(adapter, p));
        found = (await repo.orderPayments(customerId, orderId)) ?? found;
      }
      const money = await createSettleRepo(db).orderMoney(customerId, orderId);
      return {
        status: paymentReturnStatus(found.attempts.map((a) => a.state)),
        pending: found.pending,
        ...(money?.unapplied ? { unapplied: true as const } : {}),
        ...(money && money.amountDueCents > 0 ? { amountDue: centsToAmount(money.amountDueCents) } : {}),
      };
    },

    /** The sandbox page's data: the attempt and its order (404 unless that provider runs in sandbox mode). */
    async sandboxView({ provider, paymentId }: { provider: PaymentSystem; paymentId: string }) {
      const payment = await sandboxPayment(provider, paymentId);
      const order = await repo.orderTitle(payment.orderId);
      if (!order) throw notFound();
      return { payment, order };
    },

    /** The callback the provider would send for the buyer's choice on the sandbox page. */
    async sandboxCallback({
      provider,
      paymentId,
      outcome,
    }: {
      provider: PaymentSystem;
      paymentId: string;
      outcome: SandboxOutcome;
    }): Promise<{ callback: SandboxCallback; orderId: number; returnTo: (ok: boolean) => string }> {
      const payment = await sandboxPayment(provider, paymentId);
      return {
        callback: providers[provider].sandboxCallback(payment, outcome),
        orderId: payment.orderId,
        returnTo: (ok) => returnPage(payment, ok),
      };
    },

    orderPage,
  };
};
export type PaymentsService = ReturnType<typeof createPaymentsService>;
