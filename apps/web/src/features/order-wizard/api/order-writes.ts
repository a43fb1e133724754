import type { OrderFile } from '@app/domain/files';
import type { OrderRef } from '@app/domain/order';
import type { OrderBody } from '@app/domain/order-form';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { ApiError, apiFetch, withAccessToken } from '@/lib/api-client';

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

/**
 * CONTRACT "Paths": one file per request (multipart `file`). XMLHttpRequest, not fetch, because only
 * it reports upload progress (DESIGN rule 9: uploads show a percentage); a 401 renews the token once.
 */
const sendFile = (orderId: number, file: File, onProgress: (percent: number) => void, accessToken: string | null) =>
  new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/en/orders/${orderId}/customers/files`);
    xhr.setRequestHeader('Accept', 'application/json');
    if (accessToken) xhr.setRequestHeader('Authorization', `Bearer ${accessToken}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        body = undefined;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new ApiError(TRANSPORT_MESSAGE.badResponse, 0));
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });

export const uploadOrderFile = async (orderId: number, file: File, onProgress: (percent: number) => void): Promise<OrderFile> => {
  const { status, body } = await withAccessToken((token) => sendFile(orderId, file, onProgress, token));
  if (status < 200 || status >= 300) throw new ApiError(TRANSPORT_MESSAGE.badResponse, status, body);
  onProgress(100);
  return body as OrderFile;
};
