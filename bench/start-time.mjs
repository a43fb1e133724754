// ADR 0058: what `npm start` costs until /healthz answers 200.
//   cold: both builds are out of date (their stamps removed, as after a pull that changed the sources)
//         and the data directory is new (migrations and the demo data run);
//   warm: the same again with nothing changed (the build is reused, the database exists).
// Goal: a warm start under 2 s (the median of three). `node bench/start-time.mjs`; exits 1 over budget.
// The CPU time the process tree used until then is printed beside each wall time: on a busy machine the
// wall time grows with the load average, the CPU time hardly. A bare `node -e 0` start, timed in the same
// run, is the machine's own yardstick (ADR 0058).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { load, root, startProduct } from './start-support.mjs';

export const WARM_START_BUDGET_MS = 2000;
const WARM_RUNS = 3;
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const cpu = (ms) => (ms === undefined ? 'n/a' : s(ms));

/** Wall time of a bare `node -e 0`, the cheapest start this machine can do right now. */
const bareNodeMs = () => {
  const startedAt = performance.now();
  execFileSync(process.execPath, ['-e', '0']);
  return performance.now() - startedAt;
};

export const runStartTimeBench = async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-start-'));
  try {
    for (const dist of ['apps/web/dist', 'apps/server/dist']) rmSync(path.join(root, dist, '.build-stamp.json'), { force: true });
    const cold = await startProduct({ dataDir });
    await cold.stop();
    console.info(`cold start (both builds + new database + demo data): ${s(cold.ms)}, CPU ${cpu(cold.cpuMs)} (load average ${load()})`);
    const warm = [];
    const cpus = [];
    const bare = [];
    for (let i = 0; i < WARM_RUNS; i += 1) {
      bare.push(bareNodeMs());
      const run = await startProduct({ dataDir });
      await run.stop();
      warm.push(run.ms);
      cpus.push(run.cpuMs);
    }
    const median = [...warm].sort((a, b) => a - b)[Math.floor(WARM_RUNS / 2)];
    const within = median < WARM_START_BUDGET_MS;
    console.info(
      `warm start (nothing changed): ${warm.map(s).join(', ')}; median ${s(median)}; CPU ${cpus.map(cpu).join(', ')} (load average ${load()})`,
    );
    console.info(
      `bare \`node -e 0\` in the same run: ${bare.map(s).join(', ')}; median ${s([...bare].sort((a, b) => a - b)[Math.floor(WARM_RUNS / 2)])}`,
    );
    console.info(`${within ? 'PASS' : 'FAIL'} warm start median ${s(median)} (budget < ${s(WARM_START_BUDGET_MS)})`);
    return within;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = (await runStartTimeBench()) ? 0 : 1;
}
