import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import { apiErrorFor, ApiError, apiFetch, withAccessToken } from '@/lib/api-client';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
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

interface XhrAnswer {
  status: number;
  body: unknown;
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const postWithProgress = (url: string, form: FormData, accessToken: string | null, onProgress: (percent: number) => void) =>
  new Promise<XhrAnswer>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (accessToken !== null) xhr.setRequestHeader('Authorization', `Bearer ${accessToken}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => resolve({ status: xhr.status, body: parseJson(xhr.responseText) });
    xhr.onerror = () => reject(new ApiError(TRANSPORT_MESSAGE.badResponse, 0));
    xhr.send(form);
  });

/**
 * CONTRACT "Paths": POST /api/en/orders/{id}/customers/files, one multipart `file` per request.
 * XMLHttpRequest because only it reports upload progress (DESIGN rule 9).
 */
export const uploadOrderFile = async (orderId: number, file: File, onProgress: (percent: number) => void): Promise<void> => {
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = await withAccessToken((token) => postWithProgress(`/api/en/orders/${orderId}/customers/files`, form, token, onProgress));
  if (answer.status < 200 || answer.status >= 300) throw apiErrorFor(answer.status, answer.body);
  onProgress(100);
};

/**
 * CONTRACT "Paths": GET /api/en/orders/files/{id}. A plain link cannot carry the Authorization header,
 * so the file is fetched with the token and handed to the browser as an object URL.
 */
export const downloadOrderFile = async (file: Pick<OrderFile, 'id' | 'name'>): Promise<void> => {
  const response = await withAccessToken((token) =>
    fetch(`/api/en/orders/files/${file.id}`, { headers: token === null ? {} : { Authorization: `Bearer ${token}` } }),
  );
  if (!response.ok) throw apiErrorFor(response.status, parseJson(await response.text().catch(() => '')));
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download manager; give it a moment before letting go.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
};
