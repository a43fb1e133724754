import { useCallback, useState } from 'react';
import { DISCOUNT_MESSAGE, normalizeDiscountCode } from '@app/domain/discount/rules';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import type { OrderFormValues } from '@app/domain/order-form/rules';
import { ApiError } from '@/lib/api-client';
import { trackWizardEvent } from '../lib/debug';
import type { AppliedDiscount } from '../lib/persisted-state';

// 'info': Apply with nothing typed is a hint, not an error painted over the form (issue 27).
export type DiscountNotice = { tone: 'error' | 'success' | 'info'; text: string } | null;

const failureText = (error: unknown): string => {
  if (error instanceof ApiError) return error.fieldErrors.code?.[0] ?? error.serverMessage ?? TRANSPORT_MESSAGE.somethingWentWrong;
  return TRANSPORT_MESSAGE.somethingWentWrong;
};

/**
 * SPEC §4 "Discount" and §8 messages: apply; applying again while applied resets; failure resets.
 * Lives with the wizard's state (not in the lazy checkout step) so a code re-applied on opening an
 * order for editing, or arriving with ?discount=, prices every step (ADR 0027).
 */
export const useDiscountApply = (
  setDiscount: (discount: AppliedDiscount | null) => void,
  update: (patch: Partial<OrderFormValues>) => void,
) => {
  const [notice, setNotice] = useState<DiscountNotice>(null);
  const [busy, setBusy] = useState(false);

  /** `applied` is the code applied now (null when none): the same code again resets (SPEC §4). */
  const apply = useCallback(
    async (raw: string, applied: string | null) => {
      const normalized = normalizeDiscountCode(raw);
      setDiscount(null);
      update({ discountCode: '' });
      setNotice(null);
      if (applied !== null && applied === normalized) return;
      if (normalized === '') {
        setNotice({ tone: 'info', text: DISCOUNT_MESSAGE.empty });
        return;
      }
      setBusy(true);
      try {
        // The call's code comes with the first code applied (ADR 0062).
        const found = await import('../api/discount').then((m) => m.applyDiscount(normalized));
        setDiscount({ code: found.code, percent: found.percent, amount: found.amount, isTopWriterDiscount: found.isTopWriterDiscount });
        update({ discountCode: found.code });
        setNotice({ tone: 'success', text: DISCOUNT_MESSAGE.applied });
        trackWizardEvent('discount', found.code);
      } catch (error) {
        setNotice({ tone: 'error', text: failureText(error) });
      } finally {
        setBusy(false);
      }
    },
    [setDiscount, update],
  );

  return { apply, notice, busy };
};
