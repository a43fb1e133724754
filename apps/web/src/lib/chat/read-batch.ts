/**
 * Read receipts go out in batches (ADR 0049): messages seen within `delayMs` of one another share one
 * `PUT …/messages/read`; an id is sent once per batcher (a second sighting adds nothing). A failed call
 * gives its ids back so the next sighting sends them again. Timers are injected so tests drive them.
 */
export const READ_BATCH_DELAY_MS = 400;

export interface Timers {
  set: (run: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
}

export const browserTimers: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export const createReadBatcher = ({
  send,
  delayMs = READ_BATCH_DELAY_MS,
  timers = browserTimers,
}: {
  send: (ids: number[]) => Promise<unknown>;
  delayMs?: number;
  timers?: Timers;
}) => {
  const pending = new Set<number>();
  const done = new Set<number>();
  let handle: unknown = null;

  const flush = (): void => {
    handle = null;
    if (pending.size === 0) return;
    const ids = [...pending].sort((a, b) => a - b);
    pending.clear();
    for (const id of ids) done.add(id);
    send(ids).catch(() => {
      for (const id of ids) done.delete(id);
    });
  };

  return {
    /** These ids were seen by the customer. */
    seen(ids: readonly number[]): void {
      let added = false;
      for (const id of ids) {
        if (done.has(id) || pending.has(id)) continue;
        pending.add(id);
        added = true;
      }
      if (added && handle === null) handle = timers.set(flush, delayMs);
    },
    flush(): void {
      if (handle !== null) timers.clear(handle);
      flush();
    },
    dispose(): void {
      if (handle !== null) timers.clear(handle);
      handle = null;
      pending.clear();
    },
  };
};
