import type { OrderFile } from '@app/domain/files';
import { apiErrorFor } from '../api-client';
import { uploadWithProgress } from '../upload';

/**
 * CONTRACT "Paths": POST /api/en/orders/{id}/customers/files, one multipart `file` per request, with its
 * progress (DESIGN rule 9, `lib/upload.ts`); `signal` cancels it. Answers the stored file.
 */
export const uploadOrderFile = async (
  orderId: number,
  file: File,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<OrderFile> => {
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = await uploadWithProgress({
    url: `/api/en/orders/${orderId}/customers/files`,
    form,
    onProgress,
    ...(signal ? { signal } : {}),
  });
  if (answer.status < 200 || answer.status >= 300) throw apiErrorFor(answer.status, answer.body);
  onProgress(100);
  return answer.body as OrderFile;
};
