import DataLoader from 'dataloader';

/**
 * ADR 0063: the reads that every request or every chat wake-up makes (an access token's liveness, an
 * order's unread count, a message to fan out) are gathered over one event-loop turn and asked in one
 * query. Nothing is cached: each caller gets what the database held after it asked. `load` answers the
 * keys in the order it got them (DataLoader's contract); an Error in the answer rejects that key's call alone.
 */
export const batchPerTurn = <K, V>(load: (keys: readonly K[]) => Promise<(V | Error)[]>): ((key: K) => Promise<V>) => {
  const loader = new DataLoader<K, V>((keys) => load(keys), {
    cache: false,
    batchScheduleFn: (run) => setImmediate(run),
    maxBatchSize: 200,
  });
  return (key) => loader.load(key);
};
