import { useQuery } from '@tanstack/react-query';
import { orderQueryOptions } from '@/lib/resources/orders';

/** The order page's order: the one cache entry every screen shares (`lib/resources/orders.ts`, ADR 0056). */
export const useOrder = (id: number) => useQuery(orderQueryOptions(id));
