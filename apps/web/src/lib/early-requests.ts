import { EARLY_REQUESTS_GLOBAL } from '@app/domain/routes';

/** An answer the page's inline script asked for before the app's code arrived (ADR 0100). */
interface EarlyRequest {
  token: string;
  at: number;
  response: Promise<Response>;
}

/** Older than this, an early answer is not used: the app asks again (the page sat unused, the data may have moved on). */
const EARLY_ANSWER_MAX_AGE_MS = 30_000;

const early = (): Record<string, EarlyRequest | undefined> | undefined =>
  typeof window === 'undefined'
    ? undefined
    : (window as unknown as Record<string, Record<string, EarlyRequest | undefined> | undefined>)[EARLY_REQUESTS_GLOBAL];

/**
 * The response the page already asked for `GET path` with this access token, taken once; undefined when
 * there is none (another path, another token, a later call, too old). apiFetch then asks the server as
 * always; a 401 in it goes through the same renewal as any other answer.
 */
export const takeEarlyResponse = (path: string, accessToken: string | null): Promise<Response> | undefined => {
  const all = early();
  const found = all?.[path];
  if (all === undefined || found === undefined) return undefined;
  delete all[path];
  return found.token === accessToken && Date.now() - found.at < EARLY_ANSWER_MAX_AGE_MS ? found.response : undefined;
};
