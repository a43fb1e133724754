/**
 * Reconnect delays (ADR 0049): exponential from `baseMs`, capped at `maxMs`, with "full jitter" so a
 * thousand tabs cut off by one server restart do not all come back in the same millisecond
 * (AWS Architecture Blog, "Exponential Backoff And Jitter"). `random` is in [0, 1): Math.random in the
 * app, a fixed value in tests.
 */
export const RECONNECT_BASE_MS = 1_000;
export const RECONNECT_MAX_MS = 30_000;

export const backoffDelay = (
  attempt: number,
  random: number,
  { baseMs = RECONNECT_BASE_MS, maxMs = RECONNECT_MAX_MS }: { baseMs?: number; maxMs?: number } = {},
): number => {
  const safeAttempt = Math.max(0, Math.min(attempt, 30));
  const ceiling = Math.min(maxMs, baseMs * 2 ** safeAttempt);
  // Never 0: a floor of a quarter of the base keeps a failing server from being hammered in a loop.
  const floor = Math.min(ceiling, baseMs / 4);
  return Math.round(floor + (ceiling - floor) * Math.min(Math.max(random, 0), 1));
};
