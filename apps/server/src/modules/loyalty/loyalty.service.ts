import { randomBytes } from 'node:crypto';
import {
  centsToAmount,
  currentLoyaltyRule,
  discountCodeState,
  DomainError,
  ERROR_CODE,
  canGenerateReferralDiscount,
  LEDGER_KIND,
  ledgerKey,
  LOYALTY_EARNING_RULE_TEXT,
  LOYALTY_RULES,
  loyaltyGeneration,
  maskEmail,
  matchesReferralFilter,
  nextLoyaltyRule,
  pointsToNextRule,
  REFERRAL_DISCOUNT_PERCENT,
  REFERRAL_MESSAGE,
  REFERRAL_STATUS,
  REFERRAL_STATUS_NAME,
  referralDiscountExpiry,
  referralStatus,
  referralUrl,
  type GeneratedDiscount,
  type LoyaltyCode,
  type LoyaltySummary,
  type ReferralDiscount,
  type ReferralFilterId,
  type ReferralInfo,
  type ReferralItem,
  type ReferralList,
} from '@app/domain';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createLoyaltyRepo, type CodeRow, type ReferralRow } from './loyalty.repo';
import { notFound } from '../../lib/errors';

const LEDGER_SHOWN = 50;
// Unambiguous capitals and digits (no 0/O, 1/I): a code a customer may type from a screenshot.
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const newCode = (prefix: string): string => {
  const bytes = randomBytes(10);
  return `${prefix}-${Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join('')}`;
};

export const createLoyaltyService = ({ db, clock, origin }: { db: Db; clock: Clock; origin: string }) => {
  const repo = createLoyaltyRepo(db);

  const toWire = (c: CodeRow, maxCents: number): GeneratedDiscount => ({
    code: c.code,
    source: c.source,
    percent: c.percent,
    maxAmountDiscount: centsToAmount(maxCents),
    state: discountCodeState({ usedAt: c.usedAt, expiresAt: c.expiresAt, active: c.active }, clock.now()),
    dateCreated: c.createdAt.toISOString(),
    expiresAt: c.expiresAt?.toISOString() ?? null,
    usedAt: c.usedAt?.toISOString() ?? null,
    idOrder: c.usedOrderId,
  });

  const statusOf = (r: ReferralRow) =>
    referralStatus(
      {
        hasOrder: r.hasOrder,
        hasPaidOrder: r.hasPaidOrder,
        discount: r.discount && { usedAt: r.discount.usedAt, expiresAt: r.discount.expiresAt },
      },
      clock.now(),
    );

  const toItem = (r: ReferralRow, maxCents: number): ReferralItem => {
    const status = statusOf(r);
    return {
      id: r.id,
      firstName: r.firstName,
      email: maskEmail(r.email),
      dateCreated: r.createdAt.toISOString(),
      status: { id: status, name: REFERRAL_STATUS_NAME[status] },
      discount: r.discount ? toWire(r.discount, maxCents) : null,
    };
  };

  return {
    rules: () => ({ rules: [...LOYALTY_RULES] }),

    /** SPEC §3 "Loyalty": the balance (the ledger's sum), the rules, where it stands, the codes. */
    summary: async ({ customerId }: { customerId: number }): Promise<LoyaltySummary> => {
      const [points, maxCents, open, codes, ledger] = await Promise.all([
        repo.balance(customerId),
        repo.maxAmountDiscountCents(),
        repo.openLoyaltyCode(customerId),
        repo.generatedCodes(customerId),
        repo.ledger(customerId, LEDGER_SHOWN),
      ]);
      const generation = loyaltyGeneration(points);
      return {
        points,
        rules: [...LOYALTY_RULES],
        currentRule: currentLoyaltyRule(points),
        nextRule: nextLoyaltyRule(points),
        pointsToNextRule: pointsToNextRule(points),
        generation: generation.ok
          ? { percent: generation.percent, pointsSpent: generation.pointsSpent, pointsLeft: generation.pointsLeft }
          : null,
        maxAmountDiscount: centsToAmount(maxCents),
        earningRule: LOYALTY_EARNING_RULE_TEXT,
        code: open ? toWire(open, maxCents) : null,
        codes: codes.map((c) => toWire(c, maxCents)),
        ledger: ledger.map((e) => ({
          id: e.id,
          kind: e.kind,
          points: e.points,
          idOrder: e.orderId,
          code: e.code,
          dateCreated: e.createdAt.toISOString(),
        })),
      };
    },

    /** `GET …/loyalty_discounts/code`: the loyalty code not used yet, or null. */
    code: async ({ customerId }: { customerId: number }): Promise<LoyaltyCode> => {
      const [open, maxCents] = await Promise.all([repo.openLoyaltyCode(customerId), repo.maxAmountDiscountCents()]);
      return { discount: open ? toWire(open, maxCents) : null };
    },

    /**
     * `POST …/loyalty_discounts/code` (ADR 0050): with a code still open, that code again and nothing
     * spent; otherwise a current rule above 0 % is needed, its `from` points are spent in the ledger and a
     * single-use code of its percent is made, in one transaction under the customer's lock.
     */
    generateCode: async ({ customerId }: { customerId: number }): Promise<LoyaltyCode> => {
      const now = clock.now();
      const code = await db.transaction(async (tx) => {
        const r = createLoyaltyRepo(tx);
        if (!(await r.lockCustomer(customerId))) throw notFound();
        const open = await r.openLoyaltyCode(customerId);
        if (open) return open;
        const generation = loyaltyGeneration(await r.balance(customerId));
        if (!generation.ok) throw new DomainError(ERROR_CODE.validation, generation.message, { code: [generation.message] });
        const text = newCode('LOYAL');
        if (!(await r.insertCode({ code: text, customerId, percent: generation.percent, source: 'loyalty', expiresAt: null, now }))) {
          throw new DomainError(ERROR_CODE.conflict, 'The code could not be generated, please try again');
        }
        await r.insertEntry({
          customerId,
          kind: LEDGER_KIND.redeemed,
          points: -generation.pointsSpent,
          key: ledgerKey.redeemed(text),
          code: text,
          now,
        });
        return r.openLoyaltyCode(customerId);
      });
      if (!code) throw new Error('the generated loyalty code was not found in its own transaction');
      return { discount: toWire(code, await repo.maxAmountDiscountCents()) };
    },

    /** `GET /api/en/customers/referral` → `{ url, readyReferrals }` */
    referralInfo: async ({ customerId }: { customerId: number }): Promise<ReferralInfo> => {
      const rows = await repo.referrals(customerId);
      return {
        url: referralUrl(origin, customerId),
        readyReferrals: rows.filter((r) => statusOf(r) === REFERRAL_STATUS.readyToUse).length,
      };
    },

    /** `GET /api/en/customers/referrals/referral_customers?idStatus` (0 all). */
    referralList: async ({ customerId, idStatus }: { customerId: number; idStatus: ReferralFilterId }): Promise<ReferralList> => {
      const [rows, maxCents] = await Promise.all([repo.referrals(customerId), repo.maxAmountDiscountCents()]);
      const items = rows
        .map((r) => toItem(r, maxCents))
        .filter((i) => matchesReferralFilter(i.status.id as Exclude<ReferralFilterId, 0>, idStatus));
      return { referrals: items, total: items.length };
    },

    /** `GET /api/en/customers/referrals/{id}/discount`: 404 for anyone else's referral or one without a code. */
    referralDiscount: async ({ customerId, id }: { customerId: number; id: number }): Promise<ReferralDiscount> => {
      const row = await repo.referral({ referrerId: customerId, id });
      if (!row?.discount) throw notFound();
      return { discount: toWire(row.discount, await repo.maxAmountDiscountCents()) };
    },

    /**
     * `POST /api/en/customers/referrals/{id}/discount` (ADR 0051): a ready referral (3) gets one code; asked
     * again (or twice at once) the same code; any other status answers SPEC §8's failure text.
     */
    generateReferralDiscount: async ({ customerId, id }: { customerId: number; id: number }): Promise<ReferralDiscount> => {
      const now = clock.now();
      const row = await db.transaction(async (tx) => {
        const r = createLoyaltyRepo(tx);
        const referral = (await r.lockReferral({ referrerId: customerId, id })) ? await r.referral({ referrerId: customerId, id }) : null;
        if (!referral) throw notFound();
        const status = statusOf(referral);
        if (status === REFERRAL_STATUS.discountGenerated) return referral;
        if (!canGenerateReferralDiscount(status)) throw new DomainError(ERROR_CODE.validation, REFERRAL_MESSAGE.generationFailed);
        const text = newCode('REF');
        const inserted = await r.insertCode({
          code: text,
          customerId,
          percent: REFERRAL_DISCOUNT_PERCENT,
          source: 'referral',
          expiresAt: referralDiscountExpiry(now),
          now,
        });
        if (!inserted || !(await r.setReferralCode({ referrerId: customerId, id, code: text }))) {
          throw new DomainError(ERROR_CODE.conflict, REFERRAL_MESSAGE.generationFailed);
        }
        return r.referral({ referrerId: customerId, id });
      });
      if (!row?.discount) throw new DomainError(ERROR_CODE.validation, REFERRAL_MESSAGE.generationFailed);
      return { discount: toWire(row.discount, await repo.maxAmountDiscountCents()) };
    },
  };
};
export type LoyaltyService = ReturnType<typeof createLoyaltyService>;
