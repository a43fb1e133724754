import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import type { RevisionList } from '@app/domain/revision';
import { REVISIONS_PAGE_SIZE } from '@app/domain/order/rules';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { apiErrorFor, ApiError, apiFetch, withAccessToken } from '@/lib/api-client';
import { revisionKeys } from './keys';

export type RevisionFileSide = 'customers' | 'writers';

/** SPEC §7: GET /api/en/orders/revisions?idOrder&page&limit (10 a page, SPEC §9). */
export const getRevisions = (orderId: number, page: number): Promise<RevisionList> =>
  apiFetch(`/api/en/orders/revisions?idOrder=${orderId}&page=${page}&limit=${REVISIONS_PAGE_SIZE}`, {
    schema: () => import('@app/domain/revision').then((m) => m.revisionListSchema),
  });
export const revisionsQueryOptions = (orderId: number, page: number) =>
  queryOptions({ queryKey: revisionKeys.list(orderId, page), queryFn: () => getRevisions(orderId, page) });
export const useRevisions = (orderId: number, page: number, enabled = true) => useQuery({ ...revisionsQueryOptions(orderId, page), enabled });

/** SPEC §7: GET /api/en/orders/revisions/{id} (a revision that is not on the list's current page). */
export const useRevision = (revisionId: number | null, enabled: boolean) =>
  useQuery({
    queryKey: [...revisionKeys.all, 'detail', revisionId],
    queryFn: () =>
      apiFetch(`/api/en/orders/revisions/${revisionId}`, { schema: () => import('@app/domain/revision').then((m) => m.revisionSchema) }),
    enabled: enabled && revisionId !== null,
  });

/** SPEC §7: GET /api/en/orders/revisions/categories and /levels (no token needed, CONTRACT). */
export const useRevisionCategories = () =>
  useQuery({
    queryKey: revisionKeys.categories(),
    queryFn: () =>
      apiFetch('/api/en/orders/revisions/categories', {
        auth: false,
        schema: () => import('@app/domain/revision').then((m) => m.revisionCategoryListSchema),
      }),
    staleTime: Infinity,
  });
export const useRevisionLevels = () =>
  useQuery({
    queryKey: revisionKeys.levels(),
    queryFn: () =>
      apiFetch('/api/en/orders/revisions/levels', {
        auth: false,
        schema: () => import('@app/domain/revision').then((m) => m.revisionLevelListSchema),
      }),
    staleTime: Infinity,
  });

/** SPEC §7: POST /api/en/orders/{id}/revisions with JSON {category, describeProblem, revisionLevel}. */
export const createRevision = (orderId: number, body: { category: number[]; describeProblem: string; revisionLevel: number }): Promise<{ id: number }> =>
  apiFetch(`/api/en/orders/${orderId}/revisions`, {
    method: 'POST',
    json: body,
    schema: () => import('@app/domain/revision').then((m) => m.revisionRefSchema),
  });

/** SPEC §7: GET /api/en/orders/revisions/{id}/customers/files and /writers/files. */
export const useRevisionFiles = (revisionId: number, side: RevisionFileSide) =>
  useQuery({
    queryKey: revisionKeys.files(revisionId, side),
    queryFn: (): Promise<OrderFile[]> =>
      apiFetch(`/api/en/orders/revisions/${revisionId}/${side}/files`, {
        schema: () => import('@app/domain/files').then((m) => m.orderFileListSchema),
      }),
  });

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** An upload the customer canceled (not an error to show). */
export class UploadCanceledError extends Error {}

/**
 * SPEC §7: POST /api/en/orders/revisions/{id}/customers/files as a form with id_revision and file.
 * XMLHttpRequest because only it reports upload progress; `signal` cancels (DESIGN rule 9).
 */
export const uploadRevisionFile = async (
  revisionId: number,
  file: File,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
): Promise<OrderFile> => {
  const form = new FormData();
  form.append('id_revision', String(revisionId));
  form.append('file', file, file.name);
  const answer = await withAccessToken(
    (token) =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('POST', `/api/en/orders/revisions/${revisionId}/customers/files`);
        xhr.setRequestHeader('Accept', 'application/json');
        if (token !== null) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
        xhr.upload.onprogress = (event) => {
          if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
        };
        xhr.onload = () => resolve({ status: xhr.status, body: parseJson(xhr.responseText) });
        xhr.onerror = () => reject(new ApiError(TRANSPORT_MESSAGE.badResponse, 0));
        xhr.onabort = () => reject(new UploadCanceledError('canceled'));
        if (signal.aborted) reject(new UploadCanceledError('canceled'));
        signal.addEventListener('abort', () => xhr.abort(), { once: true });
        xhr.send(form);
      }),
  );
  if (answer.status < 200 || answer.status >= 300) throw apiErrorFor(answer.status, answer.body);
  onProgress(100);
  return answer.body as OrderFile;
};

/**
 * CONTRACT "Paths": GET /api/en/orders/files/{id}, read as a stream so a large file shows its progress,
 * then handed to the browser as an object URL (a link cannot carry the token).
 */
export const downloadRevisionFile = async (file: Pick<OrderFile, 'id' | 'name' | 'size'>, onProgress: (percent: number) => void): Promise<void> => {
  const response = await withAccessToken((token) =>
    fetch(`/api/en/orders/files/${file.id}`, { headers: token === null ? {} : { Authorization: `Bearer ${token}` } }),
  );
  if (!response.ok) throw apiErrorFor(response.status, parseJson(await response.text().catch(() => '')));
  const total = Number(response.headers.get('content-length') ?? file.size) || file.size;
  const chunks: Uint8Array[] = [];
  const reader = response.body?.getReader();
  if (reader) {
    let loaded = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.length;
      if (total > 0) onProgress(Math.min(100, Math.round((loaded / total) * 100)));
    }
  } else {
    chunks.push(new Uint8Array(await response.arrayBuffer()));
  }
  onProgress(100);
  const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
};
