import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OrderFile } from '@app/domain/files';
import type { StaffRevision, StaffRevisionList } from '@app/domain/revision';
import { apiFetch } from '@/lib/api-client';
import { postForm } from '@/lib/upload';
import { staffKeys } from './keys';

export type { StaffRevision };

const loadRevision = () => import('@app/domain/revision');

/** ADR 0044, 0089: GET /api/staff/revisions?idOrder, the order's revisions, newest first. */
export const useOrderRevisions = (orderId: number) =>
  useQuery({
    queryKey: staffKeys.revisions(orderId),
    queryFn: (): Promise<StaffRevisionList> =>
      apiFetch(`/api/staff/revisions?idOrder=${orderId}&limit=100`, {
        schema: () => loadRevision().then((m) => m.staffRevisionListSchema),
      }),
  });

/** CONTRACT "Staff side": PUT /api/staff/revisions/{id}/status { status } (assigned writer, support). */
export const useSetRevisionStatus = (orderId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ revisionId, status }: { revisionId: number; status: number }): Promise<StaffRevision> =>
      apiFetch(`/api/staff/revisions/${revisionId}/status`, {
        method: 'PUT',
        json: { status },
        schema: () => loadRevision().then((m) => m.staffRevisionSchema),
      }),
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: staffKeys.revisions(orderId) });
      void queryClient.invalidateQueries({ queryKey: staffKeys.queues() });
    },
  });
};

/** ADR 0044: POST /api/staff/revisions/{id}/writers/files (multipart `file`), a revised file, with progress. */
export const deliverRevisionFile = (
  revisionId: number,
  file: File,
  onProgress: (percent: number) => void,
  signal: AbortSignal,
): Promise<OrderFile> =>
  postForm({
    url: `/api/staff/revisions/${revisionId}/writers/files`,
    fields: { file },
    schema: () => import('@app/domain/files').then((m) => m.orderFileSchema),
    onProgress,
    signal,
  });
