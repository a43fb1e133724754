import { deserialize, revive, serialize, type OutboxEntry } from '../lib/outbox';
import { createStore } from './store';

/**
 * The outbox kept in localStorage (ADR 0049: a few small JSON entries, read synchronously at start;
 * IndexedDB would buy nothing here). Other tabs of the same browser see changes through the `storage`
 * event; a message that two tabs both send is stored once (its client id is the Idempotency-Key).
 */
export const OUTBOX_STORAGE_KEY = 'chatOutbox.v1';

const load = (): OutboxEntry[] => {
  try {
    return revive(deserialize(window.localStorage.getItem(OUTBOX_STORAGE_KEY)));
  } catch {
    return [];
  }
};

const save = (entries: readonly OutboxEntry[]): void => {
  try {
    if (entries.length === 0) window.localStorage.removeItem(OUTBOX_STORAGE_KEY);
    else window.localStorage.setItem(OUTBOX_STORAGE_KEY, serialize(entries));
  } catch {
    // Storage full or refused: the outbox still lives as long as the page.
  }
};

export const createOutboxStore = () => {
  const store = createStore<OutboxEntry[]>(load());
  const update = (change: (entries: OutboxEntry[]) => OutboxEntry[]): void => {
    const next = change(store.get());
    store.set(next);
    save(next);
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key !== OUTBOX_STORAGE_KEY) return;
    // Another tab changed it: take theirs, keeping this tab's in-memory files and in-flight states.
    const mine = new Map(store.get().map((e) => [e.clientId, e]));
    const theirs = deserialize(event.newValue).map((e) => {
      const own = mine.get(e.clientId);
      return own ? { ...e, status: own.status, files: own.files } : e;
    });
    const withFiles = store.get().filter((e) => e.files !== undefined && e.files.length > 0 && !theirs.some((t) => t.clientId === e.clientId));
    store.set([...theirs, ...withFiles]);
  };
  window.addEventListener('storage', onStorage);
  return {
    ...store,
    update,
    dispose: () => window.removeEventListener('storage', onStorage),
  };
};

export type OutboxStore = ReturnType<typeof createOutboxStore>;
