import { deserialize, revive, serialize, type OutboxEntry } from '../lib/outbox';
import { createStore } from './store';

/**
 * The outbox kept in localStorage (ADR 0049: a few small JSON entries, read synchronously at start;
 * IndexedDB would buy nothing here). Other tabs of the same browser see changes through the `storage`
 * event; a message that two tabs both send is stored once (its client id is the Idempotency-Key).
 */
export const outboxStorageKey = (customerId: number): string => `chatOutbox.v1.${customerId}`;

const load = (key: string): OutboxEntry[] => {
  try {
    return revive(deserialize(window.localStorage.getItem(key)));
  } catch {
    return [];
  }
};

const save = (key: string, entries: readonly OutboxEntry[]): void => {
  try {
    if (entries.length === 0) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, serialize(entries));
  } catch {
    // Storage full or refused: the outbox still lives as long as the page.
  }
};

export const createOutboxStore = (customerId: number) => {
  const key = outboxStorageKey(customerId);
  const store = createStore<OutboxEntry[]>(load(key));
  const update = (change: (entries: OutboxEntry[]) => OutboxEntry[]): void => {
    const next = change(store.get());
    store.set(next);
    save(key, next);
  };
  const onStorage = (event: StorageEvent) => {
    if (event.key !== key) return;
    // Another tab changed it: take theirs, keeping this tab's in-memory files and in-flight states.
    const mine = new Map(store.get().map((e) => [e.clientId, e]));
    const theirs = deserialize(event.newValue).map((e) => {
      const own = mine.get(e.clientId);
      return own ? { ...e, status: own.status, files: own.files } : e;
    });
    const withFiles = store
      .get()
      .filter((e) => e.files !== undefined && e.files.length > 0 && !theirs.some((t) => t.clientId === e.clientId));
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
