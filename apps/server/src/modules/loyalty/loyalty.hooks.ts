import { LEDGER_KIND, ledgerKey, pointsForPayment, referralFraud } from '@app/domain';
import type { Queryable } from '../../db/client';
import { createLoyaltyRepo } from './loyalty.repo';

/**
 * What other modules call inside their own transactions (ADR 0050, 0051). Each writes at most one ledger entry
 * under a key the database holds unique, so a repeated callback or event adds nothing.
 */

/** A payment settled its order (payments' settle path, ADR 0050): its points, once per payment. */
export const earnPointsForPayment = async (
  tx: Queryable,
  p: { paymentId: string; orderId: number; customerId: number; amountCents: number; now: Date },
): Promise<boolean> => {
  const points = pointsForPayment(p.amountCents);
  if (points <= 0) return false;
  return createLoyaltyRepo(tx).insertEntry({
    customerId: p.customerId,
    kind: LEDGER_KIND.earned,
    points,
    key: ledgerKey.earned(p.paymentId),
    orderId: p.orderId,
    paymentId: p.paymentId,
    now: p.now,
  });
};

/** The order was refunded (a provider's refund event, support's status 7): what it earned is taken back, once. */
export const reversePointsForOrder = async (tx: Queryable, { orderId, now }: { orderId: number; now: Date }): Promise<boolean> => {
  const repo = createLoyaltyRepo(tx);
  const earned = await repo.earnedForOrder(orderId);
  if (!earned || earned.points <= 0) return false;
  return repo.insertEntry({
    customerId: earned.customerId,
    kind: LEDGER_KIND.reversed,
    points: -earned.points,
    key: ledgerKey.reversed(orderId),
    orderId,
    now,
  });
};

/**
 * A visitor signed up with `ref_id` (the auth module, after the account exists; ADR 0051): the referral is
 * recorded, flagged when it earns nothing (self-referral, a loop, a device another account used).
 */
export const recordReferral = async (
  q: Queryable,
  r: { referrerId: number; referredId: number; hashDevice: string; now: Date },
): Promise<void> => {
  if (r.referrerId === r.referredId) return;
  const repo = createLoyaltyRepo(q);
  const hashDevice = r.hashDevice.trim().slice(0, 256);
  const fraud = referralFraud({
    referrerId: r.referrerId,
    referredId: r.referredId,
    referrerChain: await repo.referrerChain(r.referrerId),
    hashDevice,
    referrerDevices: await repo.devicesOf(r.referrerId),
    devicesOfOtherAccounts: await repo.deviceUsedByOthers(hashDevice, r.referredId),
  });
  await repo.insertReferral({ referrerId: r.referrerId, referredId: r.referredId, hashDevice, fraud, now: r.now });
};
