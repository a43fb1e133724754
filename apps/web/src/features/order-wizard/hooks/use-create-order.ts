import { useCallback, useState } from 'react';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { ORDER_FORM_MESSAGE } from '@app/domain/order-form/rules';
import { toast } from '@/components/ui/toast';
import type { AccountInput } from '../components/step-checkout';
import type { CreateOptions } from '../lib/submit-order';
import type { OrderWizardState } from './use-order-wizard';

/** The creation flow's code: loaded on Create, or once the first step is on screen (ADR 0028). */
export const loadSubmitOrder = () => import('../lib/submit-order');

/** SPEC §4 "Order creation" and §8 "Order creation failure". */
export const useCreateOrder = (w: OrderWizardState, options: CreateOptions) => {
  const [failure, setFailure] = useState<string | null>(null);
  const { setLocked, idempotencyKeyRef } = w;

  const run = useCallback(
    async (account: AccountInput) => {
      setFailure(null);
      // The key is made once per order and kept (persisted) until success: a retry or a reload repeats it.
      idempotencyKeyRef.current ??= crypto.randomUUID();
      w.persist();
      setLocked(true);
      toast.show(options.editing ? ORDER_FORM_MESSAGE.orderUpdating : ORDER_FORM_MESSAGE.orderCreating);
      let submit: Awaited<ReturnType<typeof loadSubmitOrder>>['submitOrder'];
      try {
        ({ submitOrder: submit } = await loadSubmitOrder());
      } catch {
        setFailure(TRANSPORT_MESSAGE.somethingWentWrong);
        setLocked(false);
        return;
      }
      await submit({ w, options, account, setFailure });
    },
    [w, options, setLocked, idempotencyKeyRef],
  );

  return { create: run, failure, setFailure };
};
