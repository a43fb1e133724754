import { randomBytes } from 'node:crypto';
import {
  centsToAmount,
  DomainError,
  ERROR_CODE,
  PAYMENT_KIND,
  pagesMaxFor,
  planUpgrade,
  UPGRADE_MIN_LEAD_HOURS,
  UPGRADEABLE_STATUSES,
  upgradeBlocked,
  UPGRADE_EXTRA_NAME,
  urgencyLabel,
  type OrderCharge,
  type UpgradeExtra,
  type PriceTable,
  type UpgradeBody,
  type UpgradeCreated,
  type UpgradePlan,
  type UpgradeQuote,
} from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { recordOrderEvent } from '../delivery';
import { orderWrites } from '../orders';
import type { PaymentRow } from './payments.repo';
import { createUpgradesRepo, type UpgradeOrderRow, type UpgradeRow } from './payments.upgrades.repo';

const HOUR_MS = 60 * 60 * 1000;

/** What pricing an upgrade needs: the one price-table cache and the site's urgencies (services.ts builds them once). */
export interface UpgradePricing {
  forCategory(category: string | number): Promise<PriceTable>;
  urgencyHours(): Promise<number[]>;
}

const quoteOf = (
  plan: Pick<UpgradePlan, 'differenceCents' | 'pages' | 'urgencyHours' | 'deadline' | 'extras'> & {
    currentPriceCents: number;
  },
): UpgradeQuote => ({
  difference: centsToAmount(plan.differenceCents),
  currentPrice: centsToAmount(plan.currentPriceCents),
  newPrice: centsToAmount(plan.currentPriceCents + plan.differenceCents),
  pages: plan.pages,
  urgency: plan.urgencyHours,
  deadline: plan.deadline.toISOString(),
  extras: { ...plan.extras },
});

const sameUpgrade = (row: UpgradeRow, plan: UpgradePlan): boolean =>
  row.pages === plan.pages &&
  row.urgencyHours === plan.urgencyHours &&
  row.deadline.getTime() === plan.deadline.getTime() &&
  row.basePriceCents === plan.currentPriceCents &&
  row.differenceCents === plan.differenceCents &&
  (Object.keys(plan.extras) as (keyof UpgradePlan['extras'])[]).every((k) => row.extras[k] === plan.extras[k]);

/**
 * The charge an upgrade stands for (ADR 0086): its difference, while it is open, its order can take an
 * upgrade, still costs what the upgrade was priced against, and the new deadline still leaves the writer
 * UPGRADE_MIN_LEAD_HOURS; otherwise nothing (money that arrives then is parked for support, ADR 0034).
 */
export const upgradeCharge = (upgrade: UpgradeRow | null, order: UpgradeOrderRow | null, now: Date): OrderCharge | null => {
  if (!upgrade || !order || upgrade.state !== 'open' || upgrade.orderId !== order.id) return null;
  if (upgradeBlocked(order) !== null || order.finalPriceCents !== upgrade.basePriceCents) return null;
  if (upgrade.deadline.getTime() - now.getTime() < UPGRADE_MIN_LEAD_HOURS * HOUR_MS) return null;
  return { kind: PAYMENT_KIND.upgrade, amountCents: upgrade.differenceCents };
};

/** Inside the callback's transaction, after the order's lock: the upgrade an attempt pays, locked, and its charge now. */
export const lockedUpgradeCharge = async (
  tx: Queryable,
  { payment, now }: { payment: PaymentRow; now: Date },
): Promise<OrderCharge | null> => {
  if (payment.upgradeId === null) return null;
  const repo = createUpgradesRepo(tx);
  const upgrade = await repo.lock(payment.upgradeId);
  return upgradeCharge(upgrade, await repo.order(payment.orderId), now);
};

/**
 * A paid upgrade applies, once: the order takes its pages, urgency, deadline, extras and price (the orders
 * module's write), and the upgrade is marked applied by this payment. The caller has checked the charge
 * under the same locks, so neither step can miss.
 */
export const applyPaidUpgrade = async (tx: Queryable, { payment, now }: { payment: PaymentRow; now: Date }): Promise<void> => {
  if (payment.upgradeId === null) throw new Error(`payment ${payment.id} pays no upgrade`);
  const repo = createUpgradesRepo(tx);
  const upgrade = await repo.lock(payment.upgradeId);
  if (!upgrade) throw new Error(`upgrade ${payment.upgradeId} is missing`);
  const applied = await orderWrites(tx).applyUpgrade({
    orderId: upgrade.orderId,
    statuses: UPGRADEABLE_STATUSES,
    basePriceCents: upgrade.basePriceCents,
    pages: upgrade.pages,
    urgencyHours: upgrade.urgencyHours,
    deadline: upgrade.deadline,
    extras: upgrade.extras,
    differenceCents: upgrade.differenceCents,
    priceDelta: { ...upgrade.priceDelta },
    now,
  });
  if (!applied || !(await repo.markApplied({ id: upgrade.id, paymentId: payment.id, now })))
    throw new Error(`upgrade ${upgrade.id} did not apply although its charge matched`);
  // On the order's timeline, with what the order is now (staff read it beside the brief).
  const extras = (Object.keys(upgrade.extras) as UpgradeExtra[]).filter((k) => upgrade.extras[k]).map((k) => UPGRADE_EXTRA_NAME[k]);
  await recordOrderEvent(tx, {
    orderId: upgrade.orderId,
    type: 'upgraded',
    deadline: upgrade.deadline,
    note: [`${upgrade.pages} pages`, urgencyLabel(upgrade.urgencyHours), ...extras].join(', '),
    now,
  });
};

/** The customer's side: preview an upgrade, make one to pay, read an order's upgrades (ADR 0086). */
export const createUpgrades = ({ db, clock, log, pricing }: { db: Db; clock: Clock; log: Logger; pricing: UpgradePricing }) => {
  /** Read before any transaction (the price-table cache reads through the database, not the transaction). */
  const pricesFor = async (siteCategory: number) => {
    const [table, urgencies] = await Promise.all([pricing.forCategory(siteCategory), pricing.urgencyHours()]);
    return { table, urgencies };
  };
  const plan = (
    order: UpgradeOrderRow,
    body: UpgradeBody,
    now: Date,
    { table, urgencies }: { table: PriceTable; urgencies: number[] },
  ): UpgradePlan => {
    const result = planUpgrade({ order, request: body, table, urgencies, pagesMax: pagesMaxFor(order.siteCategory), now });
    if (result.ok) return result.plan;
    const { kind, message, field } = result.refusal;
    if (kind === 'conflict') throw new DomainError(ERROR_CODE.conflict, message);
    throw new DomainError(ERROR_CODE.validation, message, field ? { [field]: [message] } : undefined);
  };

  return {
    /** `PUT …/orders/{id}/upgrade/calcs`: what it would cost; nothing is stored. */
    async preview({ customerId, orderId, body }: { customerId: number; orderId: number; body: UpgradeBody }): Promise<UpgradeQuote> {
      const order = await createUpgradesRepo(db).customerOrder({ customerId, orderId, lock: false });
      if (!order) throw notFound();
      return quoteOf(plan(order, body, clock.now(), await pricesFor(order.siteCategory)));
    },

    /**
     * `POST …/orders/{id}/upgrade`: the upgrade to pay. Under the order's lock (its open upgrade attempts
     * first, the callback's lock order), so two racing requests run one after the other: the same upgrade
     * again answers the open one; another one supersedes it (its open attempts are canceled).
     */
    async create({ customerId, orderId, body }: { customerId: number; orderId: number; body: UpgradeBody }): Promise<UpgradeCreated> {
      const existing = await createUpgradesRepo(db).customerOrder({ customerId, orderId, lock: false });
      if (!existing) throw notFound();
      const prices = await pricesFor(existing.siteCategory);
      const result = await db.transaction(async (tx) => {
        const repo = createUpgradesRepo(tx);
        await repo.lockOpenUpgradeAttempts(orderId);
        const order = await repo.customerOrder({ customerId, orderId, lock: true });
        if (!order) throw notFound();
        const now = clock.now();
        const planned = plan(order, body, now, prices);
        const open = await repo.openFor(orderId);
        if (open && sameUpgrade(open, planned)) return { row: open, fresh: false };
        if (open) await repo.supersede({ id: open.id, now });
        const row = await repo.insert({
          id: randomBytes(18).toString('base64url'),
          orderId,
          customerId,
          pages: planned.pages,
          urgencyHours: planned.urgencyHours,
          deadline: planned.deadline,
          extras: planned.extras,
          basePriceCents: planned.currentPriceCents,
          differenceCents: planned.differenceCents,
          priceDelta: planned.priceDelta,
          createdAt: now,
        });
        return { row, fresh: true };
      });
      if (result.fresh) log.info({ orderId, differenceCents: result.row.differenceCents }, 'order upgrade created');
      return { upgradeId: result.row.id, ...quoteOf({ ...result.row, currentPriceCents: result.row.basePriceCents }) };
    },
  };
};
export type Upgrades = ReturnType<typeof createUpgrades>;
