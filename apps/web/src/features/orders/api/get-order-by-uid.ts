import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch, type Schema } from '@/lib/api-client';
import { orderKeys } from '@/lib/resources/orders';

const orderIdSchema: Schema<{ id: number }> = {
  parse: (data) => {
    if (typeof data === 'object' && data !== null && 'id' in data && typeof data.id === 'number' && Number.isInteger(data.id)) {
      return { id: data.id };
    }
    throw new TypeError('The server answered without an order id');
  },
};

/** CONTRACT "Paths": GET /api/en/orders/uid/{uid} → { id }, for /orderinfo?id={uid}. */
export const getOrderByUid = (uid: string): Promise<{ id: number }> =>
  apiFetch(`/api/en/orders/uid/${encodeURIComponent(uid)}`, { schema: orderIdSchema });

export const orderByUidQueryOptions = (uid: string) =>
  queryOptions({ queryKey: orderKeys.byUid(uid), queryFn: () => getOrderByUid(uid), retry: false });

export const useOrderByUid = (uid: string | null) =>
  useQuery({ ...orderByUidQueryOptions(uid ?? ''), enabled: uid !== null && uid !== '' });
