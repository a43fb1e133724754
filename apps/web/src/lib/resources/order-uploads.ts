import type { OrderFile } from '@app/domain/files';
import { apiFetch } from '../api-client';
import { postForm } from '../upload';

/**
 * CONTRACT "Paths": POST /api/en/orders/{id}/customers/files, one multipart `file` per request, with its
 * progress (DESIGN rule 9, `lib/upload.ts`); `signal` cancels it. Answers the stored file.
 */
export const uploadOrderFile = (
  orderId: number,
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<OrderFile> =>
  postForm({
    url: `/api/en/orders/${orderId}/customers/files`,
    fields: { file },
    schema: () => import('@app/domain/files').then((m) => m.orderFileSchema),
    onProgress,
    signal,
  });

/**
 * CONTRACT "Paths": DELETE /api/en/orders/files/{id}, the one remote file delete (the edited wizard's
 * removed files, the Files tab's Remove, ADR 0096). The server refuses what may not be removed (409).
 */
export const deleteOrderFile = (fileId: number): Promise<unknown> => apiFetch(`/api/en/orders/files/${fileId}`, { method: 'DELETE' });
