import { SESSION_HINT_COOKIE } from '@app/domain/routes';
import { readStored, writeStored } from './persisted';

// UI contract "Storage": the tokens and the device hash live in localStorage under these keys.
export const STORAGE_KEY = {
  accessToken: 'accessToken',
  refreshToken: 'refreshToken',
  hashDevice: 'hashDevice',
} as const;

export interface StoredTokens {
  accessToken: string | null;
  refreshToken: string | null;
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
}

/** A year: the hint lives as long as the session may (the refresh token's life is shorter). */
const SESSION_HINT_MAX_AGE_S = 365 * 24 * 3600;

/**
 * ADR 0064: the session-hint cookie follows the stored tokens, so that the server does not draw a
 * visitor's page for this browser while it holds a session. It says only that; no token, no id.
 */
const writeSessionHint = (signedIn: boolean): void => {
  if (typeof document === 'undefined') return;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${SESSION_HINT_COOKIE}=${signedIn ? '1' : ''}; Path=/; Max-Age=${signedIn ? SESSION_HINT_MAX_AGE_S : 0}; SameSite=Lax${secure}`;
};

// Storage can be unavailable (private mode, quota): the app then behaves as signed out, and a session
// started without it lasts as long as the page.
export const tokenStorage = {
  read: (): StoredTokens => ({
    accessToken: readStored(STORAGE_KEY.accessToken),
    refreshToken: readStored(STORAGE_KEY.refreshToken),
  }),
  write: (tokens: TokenPair): void => {
    writeStored(STORAGE_KEY.accessToken, tokens.accessToken);
    writeStored(STORAGE_KEY.refreshToken, tokens.refreshToken);
    writeSessionHint(true);
  },
  clear: (): void => {
    writeStored(STORAGE_KEY.accessToken, null);
    writeStored(STORAGE_KEY.refreshToken, null);
    writeSessionHint(false);
  },
  hasAny: (): boolean => readStored(STORAGE_KEY.accessToken) !== null || readStored(STORAGE_KEY.refreshToken) !== null,
};

/** At start: the hint says what storage holds (tokens stored by another version, or a cookie cleared). */
export const syncSessionHint = (): void => {
  const signedIn = tokenStorage.hasAny();
  const hinted = typeof document !== 'undefined' && document.cookie.split('; ').includes(`${SESSION_HINT_COOKIE}=1`);
  if (signedIn !== hinted) writeSessionHint(signedIn);
};

const HASH_DEVICE_BYTES = 16;

/** UI contract: 32 random hex characters, computed once per browser and kept forever. */
export const hashDevice = (): string => {
  const existing = readStored(STORAGE_KEY.hashDevice);
  if (existing && /^[0-9a-f]{32}$/.test(existing)) return existing;
  const bytes = crypto.getRandomValues(new Uint8Array(HASH_DEVICE_BYTES));
  const hash = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  writeStored(STORAGE_KEY.hashDevice, hash);
  return hash;
};
