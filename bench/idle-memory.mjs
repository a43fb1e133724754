// ADR 0031: the resident memory of the whole `npm start` process tree (npm, any wrapper, the server) at
// idle on the demo data: first start (new database, demo data seeded) and a restart on that database,
// each after /login was served once and 10 s of quiet. Goal: under 300 MB both times.
// `node bench/idle-memory.mjs` (Linux or macOS: ps); exits 1 over budget.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { mb, MB, startProduct, treeRss } from './start-support.mjs';

export const IDLE_RSS_BUDGET_BYTES = 300 * MB;
const IDLE_MS = 10_000;

const measure = async (label, dataDir) => {
  const run = await startProduct({ dataDir, env: { SKIP_WEB_BUILD: '1' } });
  try {
    if (!(await fetch(`${run.origin}/login`)).ok) throw new Error('/login did not answer 200');
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const { total, processes } = treeRss(run.pid);
    console.info(`${label}: ${mb(total)} in ${processes.length} process(es)`);
    for (const p of processes) console.info(`  ${mb(p.rssBytes).padStart(7)}  ${p.args.slice(0, 100)}`);
    return total;
  } finally {
    await run.stop();
  }
};

export const runIdleMemoryBench = async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-idle-'));
  try {
    const first = await measure('first start (demo data seeded), idle 10 s', dataDir);
    const again = await measure('restart on that database, idle 10 s', dataDir);
    const worst = Math.max(first, again);
    const within = worst < IDLE_RSS_BUDGET_BYTES;
    console.info(`${within ? 'PASS' : 'FAIL'} idle RSS of the npm start tree ${mb(worst)} (budget < ${mb(IDLE_RSS_BUDGET_BYTES)})`);
    return within;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = (await runIdleMemoryBench()) ? 0 : 1;
}
