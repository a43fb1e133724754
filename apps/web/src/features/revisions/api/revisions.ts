import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import type { RevisionList } from '@app/domain/revision';
import { REVISIONS_PAGE_SIZE } from '@app/domain/order/rules';
import { apiFetch, errorMessage } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { postForm, UploadCanceledError } from '@/lib/upload';
import { revisionKeys } from './keys';

export type RevisionFileSide = 'customers' | 'writers';

/** SPEC §7: GET /api/en/orders/revisions?idOrder&page&limit (10 a page, SPEC §9). */
export const getRevisions = (orderId: number, page: number): Promise<RevisionList> =>
  apiFetch(`/api/en/orders/revisions?idOrder=${orderId}&page=${page}&limit=${REVISIONS_PAGE_SIZE}`, {
    schema: () => import('@app/domain/revision').then((m) => m.revisionListSchema),
  });
export const revisionsQueryOptions = (orderId: number, page: number) =>
  queryOptions({ queryKey: revisionKeys.list(orderId, page), queryFn: () => getRevisions(orderId, page) });
export const useRevisions = (orderId: number, page: number, enabled = true) =>
  useQuery({ ...revisionsQueryOptions(orderId, page), enabled });

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
const createRevision = (
  orderId: number,
  body: { category: number[]; describeProblem: string; revisionLevel: number },
): Promise<{ id: number }> =>
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

/**
 * SPEC §7: POST /api/en/orders/revisions/{id}/customers/files as a form with id_revision and file, with
 * its progress (lib/upload); `signal` cancels (DESIGN rule 9).
 */
const uploadRevisionFile = (
  revisionId: number,
  file: File,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
): Promise<OrderFile> =>
  postForm({
    url: `/api/en/orders/revisions/${revisionId}/customers/files`,
    fields: { id_revision: String(revisionId), file },
    schema: () => import('@app/domain/files').then((m) => m.orderFileSchema),
    onProgress,
    signal,
  });

/** A file the wizard attaches: `start` is called when its upload begins and answers its signal and progress. */
export interface RevisionUpload {
  file: File;
  start: () => { signal: AbortSignal; onProgress: (percent: number) => void };
}

/**
 * The revision wizard's finish (SPEC §4 "Revision wizard"): creates the revision, then uploads its files
 * one by one, and reloads the order's revision list. A refusal of the revision fails the mutation (its
 * ApiError carries the server's message and field errors; the draft stays). The revision exists once
 * created: a file that fails then does not fail it, it is answered as a problem (`name: message`) to show;
 * a canceled one is left out.
 */
export const useFinishRevision = (orderId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      body,
      uploads,
    }: {
      body: { category: number[]; describeProblem: string; revisionLevel: number };
      uploads: readonly RevisionUpload[];
    }): Promise<{ id: number; problems: string[] }> => {
      const { id } = await createRevision(orderId, body);
      const problems: string[] = [];
      for (const upload of uploads) {
        const { signal, onProgress } = upload.start();
        try {
          await uploadRevisionFile(id, upload.file, onProgress, signal);
        } catch (error) {
          if (!(error instanceof UploadCanceledError)) problems.push(`${upload.file.name}: ${errorMessage(error)}`);
        }
      }
      return { id, problems };
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: revisionKeys.lists(orderId) }),
  });
};

/** CONTRACT "Paths": a revision's files download like every order file, with progress (lib/download). */
export const downloadRevisionFile = (file: Pick<OrderFile, 'id' | 'name' | 'size'>, onProgress: (percent: number) => void): Promise<void> =>
  downloadFile(file, onProgress);
