import type { Logger } from './logger';

/**
 * A background job that runs `run` every `intervalMs` (the payments reconciliation, ADR 0037; the chat's
 * unseen-message mail, ADR 0048): the next run is scheduled when the previous one has ended, so runs never
 * overlap; a failed run is logged and the next one still comes; the timer does not keep the process alive;
 * `stop` waits for a run in progress, so a shutdown never cuts one in half. Nothing runs when `intervalMs`
 * is 0 or less. The job's state lives in the database, so a restart resumes it.
 */
export const createPeriodicJob = ({
  intervalMs,
  run,
  log,
  failure,
}: {
  intervalMs: number;
  run: () => Promise<unknown>;
  log: Pick<Logger, 'error'>;
  /** the log line of a failed run */
  failure: string;
}): { start(): void; stop(): Promise<void> } => {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;
  const schedule = (): void => {
    timer = setTimeout(() => {
      running = run()
        .catch((error: unknown) => log.error({ err: error }, failure))
        .finally(() => {
          if (!stopped) schedule();
        });
    }, intervalMs);
    timer.unref();
  };
  return {
    start(): void {
      if (intervalMs <= 0 || !stopped) return;
      stopped = false;
      schedule();
    },
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
};
