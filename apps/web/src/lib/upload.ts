import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { ApiError, apiErrorFor, withAccessToken, type Schema } from './api-client';

/** The upload was canceled (its AbortSignal fired): nothing to report to the customer. */
export class UploadCanceledError extends Error {}

interface Answer {
  status: number;
  body: unknown;
}

/** A multipart field: text, one file, or several files under the same name (sent with their names). */
type FormValue = string | File | readonly File[];

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const formOf = (fields: Record<string, FormValue>): FormData => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === 'string') form.append(name, value);
    else if (value instanceof File) form.append(name, value, value.name);
    else for (const file of value) form.append(name, file, file.name);
  }
  return form;
};

const send = (
  url: string,
  form: FormData,
  accessToken: string | null,
  headers: Record<string, string>,
  onProgress: (percent: number) => void,
  signal: AbortSignal | undefined,
): Promise<Answer> =>
  new Promise<Answer>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new UploadCanceledError('canceled'));
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (accessToken !== null) xhr.setRequestHeader('Authorization', `Bearer ${accessToken}`);
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => resolve({ status: xhr.status, body: parseJson(xhr.responseText) });
    xhr.onerror = () => reject(new ApiError(TRANSPORT_MESSAGE.badResponse, 0));
    xhr.onabort = () => reject(new UploadCanceledError('canceled'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });

/**
 * The one way the web app uploads (DESIGN rule 9: uploads show a percentage, and can be canceled): POSTs
 * `fields` as a multipart form and reports the upload's progress in percent, 100 once the answer is in.
 * XMLHttpRequest, not fetch, because only it reports upload progress. Like apiFetch (SPEC §4, §8): the
 * bearer token goes with it and a 401 renews it once (`withAccessToken`); a non-2xx answer throws the
 * ApiError the UI reads (`serverMessage`, `fieldErrors` of the server's `{ message, errors }`; status 0
 * when unreachable); the answer is parsed with `schema` (the domain's wire schema, loaded with the
 * request so that no eager code bundles zod, ADR 0020), and one that does not fit throws an ApiError 502.
 * An aborted `signal` cancels the upload with UploadCanceledError.
 */
export const postForm = async <T>({
  url,
  fields,
  schema,
  onProgress,
  signal,
  headers = {},
}: {
  url: string;
  fields: Record<string, FormValue>;
  schema: Schema<T> | (() => Promise<Schema<T>>);
  onProgress: (percent: number) => void;
  signal?: AbortSignal | undefined;
  /** extra request headers (the chat's `Idempotency-Key`, CONTRACT "Chat") */
  headers?: Record<string, string>;
}): Promise<T> => {
  const form = formOf(fields);
  const schemaLoad = typeof schema === 'function' ? schema() : Promise.resolve(schema);
  // Awaited after the answer; until then a failed load must not count as unhandled.
  schemaLoad.catch(() => undefined);
  const answer = await withAccessToken((accessToken) => send(url, form, accessToken, headers, onProgress, signal));
  if (answer.status < 200 || answer.status >= 300) throw apiErrorFor(answer.status, answer.body);
  let parsed: T;
  try {
    parsed = (await schemaLoad).parse(answer.body);
  } catch {
    throw apiErrorFor(502, undefined);
  }
  onProgress(100);
  return parsed;
};
