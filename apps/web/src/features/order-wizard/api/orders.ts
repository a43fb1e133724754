import { useQuery } from '@tanstack/react-query';
import { orderFilesQueryOptions, orderQueryOptions } from '@/lib/resources/orders';

// What the wizard reads to edit or clone an order: the same cache entries as the order page's
// (`lib/resources/orders.ts`, ADR 0056). What it writes is in order-writes.ts, loaded on Create.

export const useOrder = (id: number | null) => useQuery({ ...orderQueryOptions(id ?? 0), enabled: id !== null });

export const useOrderFiles = (id: number | null) =>
  useQuery({ ...orderFilesQueryOptions(id ?? 0, 'customers'), enabled: id !== null, retry: false });
