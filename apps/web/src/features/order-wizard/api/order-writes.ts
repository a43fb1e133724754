import type { OrderFile } from '@app/domain/files';
import type { OrderRef } from '@app/domain/order';
import type { OrderBody } from '@app/domain/order-form';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { ApiError, apiFetch } from '@/lib/api-client';
import { uploadWithProgress } from '@/lib/upload';

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

export const deleteOrderFile = (fileId: number): Promise<unknown> =>
  apiFetch(`/api/en/orders/files/${fileId}`, { method: 'DELETE' });

export const uploadOrderFile = async (orderId: number, file: File, onProgress: (percent: number) => void): Promise<OrderFile> => {
  // CONTRACT "Paths": one file per request (multipart `file`).
  const form = new FormData();
  form.append('file', file, file.name);
  const { status, body } = await uploadWithProgress({ url: `/api/en/orders/${orderId}/customers/files`, form, onProgress });
  if (status < 200 || status >= 300) throw new ApiError(TRANSPORT_MESSAGE.badResponse, status, body);
  onProgress(100);
  return body as OrderFile;
};
