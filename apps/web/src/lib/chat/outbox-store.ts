import { readStored, writeStored } from '@/lib/persisted';
import { deserialize, revive, serialize, type OutboxEntry } from './outbox';
import { createStore } from './store';

/**
 * Where the outbox lives, chosen by side (ADR 0049, 0059, 0076). The customer's is kept in localStorage
 * (a few small JSON entries, read synchronously at start; IndexedDB would buy nothing here): a reload or a
 * closed tab sends what waited. Other tabs of the same browser see changes through the `storage` event;
 * a message that two tabs both send is stored once (its client id is the Idempotency-Key). Staff's lives
 * in memory: a reload of the console drops an unsent message.
 */
export const outboxStorageKey = (customerId: number): string => `chatOutbox.v1.${customerId}`;

const load = (key: string): OutboxEntry[] => revive(deserialize(readStored(key)));

// Storage full or refused: the outbox still lives as long as the page.
const save = (key: string, entries: readonly OutboxEntry[]): void => writeStored(key, entries.length === 0 ? null : serialize(entries));

/** `persistFor`: the customer whose outbox this is (kept under their id), or null for one in memory. */
export const createOutboxStore = (persistFor: number | null) => {
  const key = persistFor === null ? null : outboxStorageKey(persistFor);
  const store = createStore<OutboxEntry[]>(key === null ? [] : load(key));
  const update = (change: (entries: OutboxEntry[]) => OutboxEntry[]): void => {
    const next = change(store.get());
    store.set(next);
    if (key !== null) save(key, next);
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
  if (key !== null) window.addEventListener('storage', onStorage);
  return {
    ...store,
    update,
    dispose: () => window.removeEventListener('storage', onStorage),
  };
};

export type OutboxStore = ReturnType<typeof createOutboxStore>;
