import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import { apiErrorFor, apiFetch } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { uploadWithProgress } from '@/lib/upload';
import { orderKeys } from './keys';

export type FileSide = 'customers' | 'writers';

/** SPEC §7: GET /api/en/orders/{id}/customers/files and /writers/files. */
export const getOrderFiles = (orderId: number, side: FileSide): Promise<OrderFile[]> =>
  apiFetch(`/api/en/orders/${orderId}/${side}/files`, {
    schema: () => import('@app/domain/files').then((m) => m.orderFileListSchema),
  });

export const orderFilesQueryOptions = (orderId: number, side: FileSide) =>
  queryOptions({ queryKey: orderKeys.files(orderId, side), queryFn: () => getOrderFiles(orderId, side) });

export const useOrderFiles = (orderId: number, side: FileSide) => useQuery(orderFilesQueryOptions(orderId, side));

/**
 * CONTRACT "Paths": POST /api/en/orders/{id}/customers/files, one multipart `file` per request.
 * XMLHttpRequest because only it reports upload progress (DESIGN rule 9).
 */
export const uploadOrderFile = async (orderId: number, file: File, onProgress: (percent: number) => void): Promise<void> => {
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = await uploadWithProgress({ url: `/api/en/orders/${orderId}/customers/files`, form, onProgress });
  if (answer.status < 200 || answer.status >= 300) throw apiErrorFor(answer.status, answer.body);
  onProgress(100);
};

/** CONTRACT "Paths": GET /api/en/orders/files/{id}, fetched with the token (lib/download). */
export const downloadOrderFile = (file: Pick<OrderFile, 'id' | 'name'>): Promise<void> => downloadFile(file);
