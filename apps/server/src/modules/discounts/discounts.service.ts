import {
  DISCOUNT_MESSAGE,
  discountLimitProblem,
  discountProblem,
  discountToWire,
  DomainError,
  ERROR_CODE,
  normalizeDiscountCode,
  type Discount,
  type DiscountList,
  type StoredDiscount,
} from '@app/domain';
import type { Clock } from '../../lib/clock';
import { hasLimits, type DiscountsRepo } from './discounts.repo';

export type DiscountResolution = { ok: true; discount: StoredDiscount } | { ok: false; message: string };

export const createDiscountsService = ({ repo, clock }: { repo: DiscountsRepo; clock: Clock }) => {
  /** The code as the customer may use it on an order, or the SPEC §8 message saying why not. */
  const resolve = async ({
    code,
    customerId,
    premiumWriter,
    orderId,
  }: {
    code: string;
    customerId: number | null;
    /** the order being edited: a single-use code it already holds stays usable on it */
    orderId?: number | undefined;
    /** undefined: not known yet (the apply call comes before the order) */
    premiumWriter?: boolean;
  }): Promise<DiscountResolution> => {
    const clean = normalizeDiscountCode(code);
    if (clean === '') return { ok: false, message: DISCOUNT_MESSAGE.empty };
    const now = clock.now();
    const found = await repo.findUsable({ code: clean, customerId, orderId, now });
    if (!found) return { ok: false, message: DISCOUNT_MESSAGE.invalid };
    const { limits, ...discount } = found;
    // ADR 0090: an admin's limits (start, end, first order only, per customer, in total).
    if (hasLimits(limits)) {
      const limitProblem = discountLimitProblem(limits, { now, ...(await repo.usage({ code: discount.code, customerId, orderId })) });
      if (limitProblem) return { ok: false, message: limitProblem };
    }
    const problem = premiumWriter === undefined ? null : discountProblem(discount, premiumWriter);
    return problem ? { ok: false, message: problem } : { ok: true, discount };
  };

  return {
    resolve,
    /**
     * SPEC §7 apply: `{ code, amount, percent, isTopWriterDiscount }`, or 422 `errors.code` with the SPEC §8
     * message. The top-writer rule is the wizard's to show (it knows the premium writer switch) and the
     * order's to enforce.
     */
    apply: async ({ code, customerId }: { code: string; customerId: number | null }): Promise<Discount> => {
      const result = await resolve({ code, customerId });
      if (!result.ok) throw new DomainError(ERROR_CODE.validation, result.message, { code: [result.message] });
      return discountToWire(result.discount);
    },
    /** `GET /api/en/orders/discounts`: the customer's own codes (public codes are handed out, not listed). */
    listOwn: async ({ customerId }: { customerId: number }): Promise<DiscountList> => ({
      discounts: (await repo.listOwn({ customerId, now: clock.now() })).map(discountToWire),
    }),
  };
};
export type DiscountsService = ReturnType<typeof createDiscountsService>;
