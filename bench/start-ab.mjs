// ADR 0058: warm `npm start` of two checkouts, alternately, on a busy machine. Each round starts the first
// tree, then the second, each on a data directory of its own, waits for /healthz and reads the CPU time
// of its process tree; a bare `node -e 0` per round is the machine's yardstick. Medians at the end.
//   node bench/start-ab.mjs <rounds> <tree A> <tree B>   (e.g. a `git worktree` of an older commit and .)
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { freePort, load, processTree, treeCpuMs } from './start-support.mjs';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const warmStart = async (cwd) => {
  const dataDir = path.join(cwd, '.tmp/start-ab-data');
  mkdirSync(dataDir, { recursive: true });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  const child = spawn(npm, ['start'], {
    cwd,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: origin,
      LOG_LEVEL: 'warn',
      SEED_DEMO: '1',
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start in ${cwd} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const result = { ms: performance.now() - startedAt, cpuMs: treeCpuMs(child.pid) };
  for (const pid of processTree(child.pid).reverse()) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await exited;
  return result;
};

const bareNodeMs = () => {
  const startedAt = performance.now();
  execFileSync(process.execPath, ['-e', '0']);
  return performance.now() - startedAt;
};

const [rounds, ...trees] = [Number(process.argv[2] ?? 5), ...process.argv.slice(3).map((t) => path.resolve(t))];
if (trees.length === 0 || !Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: node bench/start-ab.mjs <rounds> <tree> [<tree> …]');
  process.exit(2);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const runs = trees.map(() => []);
const bare = [];
// One start each first: a build or a new database is not what this compares.
for (const tree of trees) await warmStart(tree);
for (let round = 0; round < rounds; round += 1) {
  bare.push(bareNodeMs());
  for (const [i, tree] of trees.entries()) runs[i].push(await warmStart(tree));
}
for (const [i, tree] of trees.entries()) {
  const wall = runs[i].map((r) => r.ms);
  const cpu = runs[i].map((r) => r.cpuMs ?? 0);
  console.info(
    `${tree}: wall median ${(median(wall) / 1000).toFixed(2)} s (${wall.map((ms) => (ms / 1000).toFixed(2)).join(', ')}); CPU median ${(median(cpu) / 1000).toFixed(2)} s (${cpu.map((ms) => (ms / 1000).toFixed(2)).join(', ')})`,
  );
}
console.info(`bare node -e 0: median ${median(bare).toFixed(0)} ms; load average ${load()}`);
