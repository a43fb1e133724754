import type { OrderFile } from '@app/domain/files';
import { apiErrorFor, withAccessToken } from './api-client';

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/**
 * CONTRACT "Paths": GET /api/en/orders/files/{id} (order, writer and revision files alike). A plain link
 * cannot carry the Authorization header, so the file is fetched with the token, read as a stream so a
 * large file shows its progress (DESIGN rule 9), and handed to the browser as an object URL.
 */
export const downloadFile = async (
  file: Pick<OrderFile, 'id' | 'name'> & { size?: number | undefined; url?: string | undefined },
  onProgress: (percent: number) => void = () => undefined,
  // `url`: a file served elsewhere (the chat's attachments, CONTRACT "Chat").
): Promise<void> => downloadFrom(file.url ?? `/api/en/orders/files/${file.id}`, file.name, onProgress, file.size);

/** Any authorised download (a file, the personal-data report): fetched with the token, saved under `name`. */
export const downloadFrom = async (
  path: string,
  name: string,
  onProgress: (percent: number) => void = () => undefined,
  size?: number,
): Promise<void> => {
  const response = await withAccessToken((token) => fetch(path, { headers: token === null ? {} : { Authorization: `Bearer ${token}` } }));
  if (!response.ok) throw apiErrorFor(response.status, parseJson(await response.text().catch(() => '')));
  const total = Number(response.headers.get('content-length') ?? size ?? 0) || (size ?? 0);
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
  const url = URL.createObjectURL(
    new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? 'application/octet-stream' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the download manager; give it a moment before letting go.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
};
