import { describe, expect, it } from 'vitest';
import { createPeriodicJob } from './periodic-job';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('createPeriodicJob', () => {
  it('runs again after each run ends, never two at once, and goes on after a failed run', async () => {
    let active = 0;
    let most = 0;
    let runs = 0;
    const errors: unknown[] = [];
    const job = createPeriodicJob({
      intervalMs: 5,
      log: { error: (obj: unknown) => void errors.push(obj) },
      failure: 'run failed',
      run: async () => {
        runs += 1;
        active += 1;
        most = Math.max(most, active);
        await sleep(15);
        active -= 1;
        if (runs === 2) throw new Error('boom');
      },
    });
    job.start();
    job.start(); // a second start schedules nothing more
    await sleep(150);
    await job.stop();
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(most).toBe(1);
    expect(errors).toHaveLength(1);
  });

  it('stop waits for the run in progress and no run starts after it', async () => {
    let finished = false;
    let runs = 0;
    const job = createPeriodicJob({
      intervalMs: 1,
      log: { error: () => undefined },
      failure: 'run failed',
      run: async () => {
        runs += 1;
        await sleep(40);
        finished = true;
      },
    });
    job.start();
    await sleep(10);
    await job.stop();
    expect(finished).toBe(true);
    const after = runs;
    await sleep(30);
    expect(runs).toBe(after);
  });

  it('does nothing with an interval of 0', async () => {
    let runs = 0;
    const job = createPeriodicJob({ intervalMs: 0, log: { error: () => undefined }, failure: 'x', run: async () => void (runs += 1) });
    job.start();
    await sleep(20);
    await job.stop();
    expect(runs).toBe(0);
  });
});
