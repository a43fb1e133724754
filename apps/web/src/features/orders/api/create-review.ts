import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ReviewRef } from '@app/domain/review';
import { apiFetch } from '@/lib/api-client';
import { orderKeys } from '@/lib/resources/orders';

export interface ReviewInput {
  rating: number;
  comment: string;
}

/** SPEC §7: POST /api/en/orders/{id}/reviews {rating, comment} → {id}. */
export const createReview = (orderId: number, review: ReviewInput): Promise<ReviewRef> =>
  apiFetch(`/api/en/orders/${orderId}/reviews`, {
    method: 'POST',
    json: review,
    schema: () => import('@app/domain/review').then((m) => m.reviewRefSchema),
  });

/** After the review is stored the order and the lists are read again, so the review shows on them (no local copy). */
export const useCreateReview = (orderId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (review: ReviewInput) => createReview(orderId, review),
    // Issue 27: the dashboard card's Leave feedback goes once it is given.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: orderKeys.detail(orderId), exact: true }),
        queryClient.invalidateQueries({ queryKey: orderKeys.lists() }),
      ]),
  });
};
