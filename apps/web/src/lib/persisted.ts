/**
 * What the app keeps in this browser (tokens, drafts, the wizard's state, the chat's outbox, a view
 * preference). Storage may be missing (the server's render, ADR 0064), refused (private mode, a policy)
 * or full: reads then find nothing and writes keep nothing, so the value lives as long as the page. The
 * only code that touches localStorage and sessionStorage.
 */
export type StorageArea = 'local' | 'session';

const storageOf = (area: StorageArea): Storage | null => {
  if (typeof window === 'undefined') return null;
  // Reading the property itself throws where storage is refused.
  return area === 'session' ? window.sessionStorage : window.localStorage;
};

/** The text stored under `key`, or null when there is none or no storage. */
export const readStored = (key: string, area: StorageArea = 'local'): string | null => {
  try {
    return storageOf(area)?.getItem(key) ?? null;
  } catch {
    return null;
  }
};

/** Keeps `value` under `key`; null removes it. */
export const writeStored = (key: string, value: string | null, area: StorageArea = 'local'): void => {
  try {
    const storage = storageOf(area);
    if (value === null) storage?.removeItem(key);
    else storage?.setItem(key, value);
  } catch {
    // Full or refused: nothing to do, the value lives as long as the page.
  }
};

/**
 * The JSON value under `key` as `decode` accepts it, or null: nothing stored, no storage, text that is
 * not JSON, or a value `decode` refuses (null). Stored values come from older versions of the app and
 * from other tabs: `decode` checks them rather than trusting a cast.
 */
export const readStoredJson = <T>(key: string, decode: (value: unknown) => T | null, area: StorageArea = 'local'): T | null => {
  const text = readStored(key, area);
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return decode(value);
};

/** Keeps `value` as JSON under `key`. */
export const writeStoredJson = (key: string, value: unknown, area: StorageArea = 'local'): void =>
  writeStored(key, JSON.stringify(value), area);
