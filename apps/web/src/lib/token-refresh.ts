import { tokenStorage, type TokenPair } from './storage';

/**
 * SPEC §4 "Authentication": renewing the access token with the refresh token, loaded by api-client the
 * first time a request needs it (a 401, or a stored refresh token without an access token).
 */
const REFRESH_PATH = '/api/en/auth/jwt/refresh';
const REFRESH_LOCK_NAME = 'writing-service-token-refresh';

const isTokenPair = (value: unknown): value is TokenPair =>
  typeof value === 'object' &&
  value !== null &&
  'accessToken' in value &&
  'refreshToken' in value &&
  typeof value.accessToken === 'string' &&
  typeof value.refreshToken === 'string';

const readJson = async (response: Response): Promise<unknown> => {
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
};

/** The access token another request or another tab stored after rotating away from `refreshToken`. */
const rotatedAwayFrom = (refreshToken: string | null): string | null => {
  const stored = tokenStorage.read();
  if (stored.refreshToken !== null && stored.refreshToken !== refreshToken && stored.accessToken !== null) {
    return stored.accessToken;
  }
  return null;
};

/** How long to wait before asking a lost refresh again (ADR 0061: the server answers the same rotation). */
const REFRESH_RETRY_DELAY_MS = 1000;

const putRefresh = (refreshToken: string): Promise<Response> =>
  fetch(REFRESH_PATH, {
    method: 'PUT',
    headers: { Accept: 'application/json', Authorization: `Bearer ${refreshToken}` },
  });

/** The new access token, null when the session is over, 'unreachable' when no answer came at all. */
type Renewal = string | null | 'unreachable';

const refreshWith = async (refreshToken: string): Promise<Renewal> => {
  // Re-read inside the lock: a tab that held it before us may have rotated the pair already.
  const stored = tokenStorage.read();
  if (stored.refreshToken !== refreshToken) return rotatedAwayFrom(refreshToken);
  let response: Response;
  try {
    response = await putRefresh(refreshToken);
  } catch {
    // The answer was lost (a dropped connection): the server may have rotated the token already. Asking
    // again within 30 s gets the same rotation (ADR 0061), so one retry keeps the customer signed in.
    try {
      await new Promise((resolve) => setTimeout(resolve, REFRESH_RETRY_DELAY_MS));
      response = await putRefresh(refreshToken);
    } catch {
      // Still no network: that says nothing about the session; keep the tokens, fail this request.
      return 'unreachable';
    }
  }
  if (!response.ok) return rotatedAwayFrom(refreshToken);
  const body = await readJson(response);
  if (!isTokenPair(body)) return null;
  tokenStorage.write(body);
  return body.accessToken;
};

// Browsers without Web Locks fall back to the storage re-checks in refreshWith.
const withCrossTabLock = async <T>(task: () => Promise<T>): Promise<T> => {
  if (typeof navigator === 'undefined' || !('locks' in navigator) || !navigator.locks) return task();
  let result: T | undefined;
  await navigator.locks.request(REFRESH_LOCK_NAME, async () => {
    result = await task();
  });
  return result as T;
};

// One refresh at a time in this tab: concurrent 401s wait for the same rotation (CONTRACT "Identity":
// presenting an already-rotated refresh token revokes the whole family).
let refreshInFlight: Promise<Renewal> | null = null;

/** A usable access token after a 401 seen by a request that started with `startRefreshToken`. */
export const renewAccessToken = (startRefreshToken: string | null): Promise<Renewal> => {
  const rotated = rotatedAwayFrom(startRefreshToken);
  if (rotated !== null) return Promise.resolve(rotated);
  const { refreshToken } = tokenStorage.read();
  if (refreshToken === null) return Promise.resolve(null);
  refreshInFlight ??= withCrossTabLock(() => refreshWith(refreshToken)).finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
};
