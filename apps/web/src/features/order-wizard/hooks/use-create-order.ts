import { useCallback, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { ORDER_FORM_MESSAGE } from '@app/domain/order-form/rules';
import { toast } from '@/components/ui/toast';
import type { AccountInput } from '../components/step-checkout';
import type { CreateOptions, SubmitState } from '../lib/submit-order';

/** The creation flow's code: loaded on Create, or once the first step is on screen (ADR 0028). */
export const loadSubmitOrder = () => import('../lib/submit-order');

/** SPEC §4 "Order creation" and §8 "Order creation failure". */
export const useCreateOrder = (w: SubmitState & { persist: () => void }, options: CreateOptions) => {
  const [failure, setFailure] = useState<string | null>(null);
  const { setLocked, idempotencyKeyRef } = w;
  const queryClient = useQueryClient();

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
      // ADR 0056: the saved order, its files and the lists are fetched again before the order page opens,
      // so it shows the order as saved, not the answer it cached before the edit.
      const onDone = (id: number) =>
        void import('@/lib/resources/orders').then((m) => m.ordersChanged(queryClient)).then(() => options.onDone(id));
      await submit({ w, options: { ...options, onDone }, account, setFailure });
    },
    [w, options, setLocked, idempotencyKeyRef, queryClient],
  );

  return { create: run, failure, setFailure };
};
