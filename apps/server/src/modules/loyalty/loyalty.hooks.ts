import { LEDGER_KIND, ledgerKey, pointsForPayment, pointsOwedOnRefund, referralFraud, refundPointsPlan } from '@app/domain';
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

/**
 * ADR 0072: a refund of the order (the payments module's one refund use case, in its transaction, under the
 * order's lock) takes back the order's points in proportion to the money refunded so far. The balance
 * never goes below 0: when it would, the customer's unused loyalty code is voided first (apply then refuses
 * it) and the points it cost come back; what still cannot be covered is written off. One entry per refund
 * (keyed by its transaction), so a repeated refund event adds nothing.
 */
export const takeBackPointsForRefund = async (
  tx: Queryable,
  r: { orderId: number; refundTransactionId: number; paidCents: number; refundedCents: number; now: Date },
): Promise<{ takenBack: number; voidedCode: string | null }> => {
  const repo = createLoyaltyRepo(tx);
  const earned = await repo.earnedForOrder(r.orderId);
  if (!earned || earned.points <= 0) return { takenBack: 0, voidedCode: null };
  const owed = pointsOwedOnRefund({
    earnedPoints: earned.points,
    takenBackPoints: await repo.takenBackForOrder(r.orderId),
    paidCents: r.paidCents,
    refundedCents: r.refundedCents,
  });
  if (owed <= 0) return { takenBack: 0, voidedCode: null };
  // Serialises with a code generation of the same customer (it locks the same row).
  await repo.lockCustomer(earned.customerId);
  const balance = await repo.balance(earned.customerId);
  const open = balance < owed ? await repo.openLoyaltyCodeCost(earned.customerId) : null;
  let plan = refundPointsPlan({ owed, balance, openCodePoints: open?.points ?? null });
  let voidedCode: string | null = null;
  if (plan.voidCode && open) {
    if (await repo.voidUnusedCode(open.code)) {
      voidedCode = open.code;
      await repo.insertEntry({
        customerId: earned.customerId,
        kind: LEDGER_KIND.voided,
        points: plan.restored,
        key: ledgerKey.voided(open.code),
        code: open.code,
        now: r.now,
      });
    } else {
      // An order took the code meanwhile: it stays used, and the balance alone pays.
      plan = refundPointsPlan({ owed, balance, openCodePoints: null });
    }
  }
  if (plan.takenBack > 0) {
    await repo.insertEntry({
      customerId: earned.customerId,
      kind: LEDGER_KIND.reversed,
      points: -plan.takenBack,
      key: ledgerKey.reversedByRefund(r.refundTransactionId),
      orderId: r.orderId,
      now: r.now,
    });
  }
  return { takenBack: plan.takenBack, voidedCode };
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
