// When the reconciliation job asks a provider again about an open attempt (ADR 0037).

/** After this many answers that settle nothing, the attempt is left to support. */
export const RECONCILE_MAX_CHECKS = 8;

/** The longest wait between two checks of one attempt. */
export const RECONCILE_MAX_DELAY_MS = 24 * 60 * 60 * 1000;

/**
 * The wait before the next check of an attempt already checked `checks` times (1 or more): the configured
 * delay, doubled with every check, at most a day. 30 min → 30, 60, 120 … minutes.
 */
export const nextReconcileDelayMs = (checks: number, afterMs: number): number =>
  Math.min(afterMs * 2 ** Math.max(0, Math.min(checks - 1, 20)), RECONCILE_MAX_DELAY_MS);
