/**
 * Runs `run` once the browser is idle (`requestIdleCallback`, at the latest after `timeout` ms when one is
 * given), or after `fallbackMs` in a browser without it (Safari), where `run` gets no deadline.
 * Returns the cancel.
 */
export const whenIdle = (
  run: (deadline?: IdleDeadline) => void,
  { timeout, fallbackMs }: { timeout?: number; fallbackMs: number },
): (() => void) => {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, timeout === undefined ? undefined : { timeout });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(() => run(), fallbackMs);
  return () => clearTimeout(id);
};
