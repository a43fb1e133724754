import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AcceptDeliveryBody, AfterPaymentState } from '@app/domain/delivery';
import { apiFetch } from '@/lib/api-client';
import { ordersChanged } from '@/lib/resources/orders';

const stateSchema = () => import('@app/domain/delivery').then((m) => m.afterPaymentStateSchema);

/** CONTRACT "After payment" (ADR 0084): the customer's answers to a delivery and to a proposed deadline. */
export type AfterPaymentAction =
  | { kind: 'accept'; body: AcceptDeliveryBody }
  | { kind: 'changes'; message: string }
  | { kind: 'extendReview' }
  | { kind: 'answerExtension'; extensionId: number; accept: boolean };

export const sendAfterPaymentAction = (orderId: number, action: AfterPaymentAction): Promise<AfterPaymentState> => {
  switch (action.kind) {
    case 'accept':
      return apiFetch(`/api/en/orders/${orderId}/accept`, { method: 'POST', json: action.body, schema: stateSchema });
    case 'changes':
      return apiFetch(`/api/en/orders/${orderId}/changes-requested`, {
        method: 'POST',
        json: { message: action.message },
        schema: stateSchema,
      });
    case 'extendReview':
      return apiFetch(`/api/en/orders/${orderId}/review-extension`, { method: 'POST', json: {}, schema: stateSchema });
    case 'answerExtension':
      return apiFetch(`/api/en/orders/${orderId}/extensions/${action.extensionId}`, {
        method: 'PUT',
        json: { accept: action.accept },
        schema: stateSchema,
      });
  }
};

/** One answer at a time; afterwards every cached answer about orders is read again (the page, the card, the counts). */
export const useAfterPaymentAction = (orderId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: AfterPaymentAction) => sendAfterPaymentAction(orderId, action),
    onSettled: () => ordersChanged(queryClient),
  });
};
