import type { OrderRef } from '@app/domain/order';
import type { OrderBody } from '@app/domain/order-form';
import { apiFetch } from '@/lib/api-client';

const orderModule = () => import('@app/domain/order');

/** SPEC §7: POST …/orders with CONTRACT's Idempotency-Key: a retry with the same key creates nothing new. */
export const createOrder = (category: number, body: OrderBody, idempotencyKey: string): Promise<OrderRef> =>
  apiFetch(`/api/en/sites/categories/${category}/orders`, {
    method: 'POST',
    json: body,
    headers: { 'Idempotency-Key': idempotencyKey },
    schema: () => orderModule().then((m) => m.orderRefSchema),
  });

/** SPEC §7: PUT …/orders/{id} with the same body; `forceEditing` per CONTRACT. */
export const updateOrder = (category: number, id: number, body: OrderBody, forceEditing: boolean): Promise<OrderRef> =>
  apiFetch(`/api/en/sites/categories/${category}/orders/${id}${forceEditing ? '?forceEditing=1' : ''}`, {
    method: 'PUT',
    json: body,
    schema: () => orderModule().then((m) => m.orderRefSchema),
  });
