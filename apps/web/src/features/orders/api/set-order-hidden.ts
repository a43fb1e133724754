import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OrderList } from '@app/domain/order-list';
import { apiFetch } from '@/lib/api-client';
import { orderKeys } from '@/lib/resources/orders';

/** SPEC §7: PUT /api/en/orders/{id}/hide and /unhide. */
export const setOrderHidden = (id: number, hidden: boolean): Promise<unknown> =>
  apiFetch(`/api/en/orders/${id}/${hidden ? 'hide' : 'unhide'}`, { method: 'PUT' });

interface Variables {
  id: number;
  hidden: boolean;
}

/**
 * SPEC §2 "Hiding an order removes it from the visible list; unhiding brings it back": the cached pages
 * lose the order at once (optimistic); a failure puts them back and `onFailure` tells the customer.
 * Afterwards the lists, the order and the navigation's count are fetched again.
 */
export const useSetOrderHidden = ({ onFailure }: { onFailure: (error: unknown) => void }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, hidden }: Variables) => setOrderHidden(id, hidden),
    onMutate: async ({ id }: Variables) => {
      await queryClient.cancelQueries({ queryKey: orderKeys.lists() });
      const before = queryClient.getQueriesData<OrderList>({ queryKey: orderKeys.lists() });
      queryClient.setQueriesData<OrderList>({ queryKey: orderKeys.lists() }, (list) => {
        if (!list?.orders.some((order) => order.id === id)) return list;
        return { orders: list.orders.filter((order) => order.id !== id), total: Math.max(0, list.total - 1) };
      });
      return { before };
    },
    onError: (error, _variables, context) => {
      for (const [key, data] of context?.before ?? []) queryClient.setQueryData(key, data);
      onFailure(error);
    },
    onSettled: (_data, _error, { id }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: orderKeys.lists() }),
        queryClient.invalidateQueries({ queryKey: orderKeys.count() }),
        queryClient.invalidateQueries({ queryKey: orderKeys.detail(id), exact: true }),
      ]),
  });
};
