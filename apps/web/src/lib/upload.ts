import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { ApiError, withAccessToken } from './api-client';

/** The upload was canceled (its AbortSignal fired): nothing to report to the customer. */
export class UploadCanceledError extends Error {}

export interface UploadAnswer {
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

/**
 * POSTs a multipart form and reports its upload progress in percent: XMLHttpRequest, not fetch, because
 * only it reports upload progress (DESIGN rule 9: uploads show a percentage). The bearer token goes
 * with it and a 401 renews it once (`withAccessToken`); an aborted `signal` cancels the upload with
 * UploadCanceledError. Answers the status and parsed body; what a non-2xx status means is the caller's.
 */
export const uploadWithProgress = ({
  url,
  form,
  onProgress,
  signal,
  headers,
}: {
  url: string;
  form: FormData;
  onProgress: (percent: number) => void;
  signal?: AbortSignal;
  /** extra request headers (the chat's `Idempotency-Key`, CONTRACT "Chat") */
  headers?: Record<string, string>;
}): Promise<UploadAnswer> =>
  withAccessToken(
    (accessToken) =>
      new Promise<UploadAnswer>((resolve, reject) => {
        if (signal?.aborted) {
          reject(new UploadCanceledError('canceled'));
          return;
        }
        const xhr = new XMLHttpRequest();
        xhr.open('POST', url);
        xhr.setRequestHeader('Accept', 'application/json');
        if (accessToken !== null) xhr.setRequestHeader('Authorization', `Bearer ${accessToken}`);
        for (const [name, value] of Object.entries(headers ?? {})) xhr.setRequestHeader(name, value);
        xhr.upload.onprogress = (event) => {
          if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
        };
        xhr.onload = () => resolve({ status: xhr.status, body: parseJson(xhr.responseText) });
        xhr.onerror = () => reject(new ApiError(TRANSPORT_MESSAGE.badResponse, 0));
        xhr.onabort = () => reject(new UploadCanceledError('canceled'));
        signal?.addEventListener('abort', () => xhr.abort(), { once: true });
        xhr.send(form);
      }),
  );
