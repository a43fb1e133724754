// ADR 0036: which providers a deployment may offer (zod-free, ADR 0020).
import type { PaymentSystem } from '../settings/rules/index';

/** The answer of a checkout or sandbox route for a provider this deployment does not offer. */
export const PAYMENT_UNAVAILABLE_MESSAGE = 'This payment method is not available';

/**
 * The rules as the site offers them: every list keeps only the providers the deployment can use, so the
 * chooser never shows one that would refuse. A list left empty stays empty (the checkout refuses).
 */
export const offeredPaymentsRules = <S extends string>(
  rules: Record<string, Record<string, S[]>>,
  usable: readonly PaymentSystem[],
): Record<string, Record<string, S[]>> => {
  const keep = new Set<string>(usable);
  return Object.fromEntries(
    Object.entries(rules).map(([category, byWorkType]) => [
      category,
      Object.fromEntries(Object.entries(byWorkType).map(([workType, systems]) => [workType, systems.filter((s) => keep.has(s))])),
    ]),
  );
};
