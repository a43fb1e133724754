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

/**
 * The rows of a batched query (`unnest(…) WITH ORDINALITY AS k(…, n)`) back in the order of its keys: the
 * row whose `n` is the key's position from 1, or undefined where none came back.
 */
export const inKeyOrder = <R extends { n: number | string }>(keys: readonly unknown[], rows: readonly R[]): (R | undefined)[] => {
  const byN = new Map(rows.map((r) => [Number(r.n), r]));
  return keys.map((_, i) => byN.get(i + 1));
};
