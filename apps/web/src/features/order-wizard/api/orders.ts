import { useQuery } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import type { OrderDetail } from '@app/domain/order';
import { apiFetch } from '@/lib/api-client';
import { wizardKeys } from './keys';

// What the wizard reads to edit or clone an order; what it writes is in order-writes.ts, loaded on Create.

const orderModule = () => import('@app/domain/order');

export const useOrder = (id: number | null) =>
  useQuery({
    queryKey: wizardKeys.order(id ?? 0),
    queryFn: (): Promise<OrderDetail> => apiFetch(`/api/en/orders/${id}`, { schema: () => orderModule().then((m) => m.orderDetailSchema) }),
    enabled: id !== null,
    retry: false,
  });

export const useOrderFiles = (id: number | null) =>
  useQuery({
    queryKey: wizardKeys.orderFiles(id ?? 0),
    queryFn: (): Promise<OrderFile[]> =>
      apiFetch(`/api/en/orders/${id}/customers/files`, {
        schema: () => import('@app/domain/files').then((m) => m.orderFileListSchema),
      }),
    enabled: id !== null,
    retry: false,
  });
