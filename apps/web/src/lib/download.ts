import type { OrderFile } from '@app/domain/files';
import { apiErrorFor, withAccessToken } from './api-client';

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

/** Fetched with the bearer token (kept in memory, never in a cookie); a refused call becomes an ApiError. */
const authorisedFetch = async (url: string): Promise<Response> => {
  const response = await withAccessToken((token) => fetch(url, { headers: token === null ? {} : { Authorization: `Bearer ${token}` } }));
  if (!response.ok) throw apiErrorFor(response.status, parseJson(await response.text().catch(() => '')));
  return response;
};

/** Hands `href` to the browser as a download named `name` (an anchor with `download`, clicked once). */
const handToBrowser = (href: string, name: string): void => {
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
};

/**
 * CONTRACT "Paths": GET /api/en/orders/files/{id} (order, writer and revision files alike) and the other
 * file routes (a chat attachment's `url`, staff's). ADR 0080: the page asks the route for a download link
 * with its bearer token (`?link=1`: every access rule checked, an error shown here), then hands the link (the
 * same path with a one-minute ticket) to the browser's own download manager, which shows the progress and
 * keeps the bytes out of the page's memory, following the store's signed URL where there is one.
 * `onProgress` hears 0 when asked and 100 once the browser has the download.
 */
export const downloadFile = async (
  file: Pick<OrderFile, 'id' | 'name'> & { size?: number | undefined; url?: string | undefined },
  onProgress: (percent: number) => void = () => undefined,
  // `url`: a file served elsewhere (the chat's attachments, CONTRACT "Chat").
): Promise<void> => downloadFrom(file.url ?? `/api/en/orders/files/${file.id}`, file.name, onProgress);

/** ADR 0080's download link for the stored file at `path`: the same path with a one-minute ticket, absolute. */
const askLink = async (path: string): Promise<string> => {
  const asked = new URL(path, window.location.href);
  asked.searchParams.set('link', '1');
  const { url } = (await (await authorisedFetch(asked.href)).json()) as { url: string };
  // The link is the route's own path: resolved against the address asked (the chat may live on another origin).
  return new URL(url, asked).href;
};

/** A stored file at `path` (a download route of ADR 0080), saved under `name` by the browser. */
export const downloadFrom = async (path: string, name: string, onProgress: (percent: number) => void = () => undefined): Promise<void> => {
  onProgress(0);
  handToBrowser(await askLink(path), name);
  onProgress(100);
};

/** A ticket lives 60 s (ADR 0080); one is reused for 45 s, so an image loads well within its minute. */
const LINK_REUSE_MS = 45_000;
const links = new Map<string, { url: Promise<string>; until: number }>();

/**
 * ADR 0095: an address an `<img>` may load the stored picture at `path` from: the route's download link
 * (every access rule checked with the bearer token; the ticket is redacted from the server's logs and
 * good for that one path for a minute), followed by the browser like any image, to the store's signed URL
 * where there is one. A thumbnail and its large view share one link; `fresh` asks a new one (a link that
 * failed to load, e.g. past its minute).
 */
export const imageLink = (path: string, { fresh = false }: { fresh?: boolean } = {}): Promise<string> => {
  const now = Date.now();
  const known = links.get(path);
  if (!fresh && known && known.until > now) return known.url;
  const url = askLink(path);
  links.set(path, { url, until: now + LINK_REUSE_MS });
  url.catch(() => links.delete(path));
  return url;
};

/**
 * A file the server makes on request (the personal-data report, a JSON of some kilobytes): fetched with
 * the token and saved from memory, since no stored file stands behind it.
 */
export const downloadGenerated = async (path: string, name: string): Promise<void> => {
  const response = await authorisedFetch(path);
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  const url = URL.createObjectURL(new Blob([await response.arrayBuffer()], { type }));
  handToBrowser(url, name);
  // The click has handed the blob to the download manager; give it a moment before letting go.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
};
