// Shared by bench/start-time.mjs and bench/idle-memory.mjs: run the real `npm start` on a free port and
// a data directory of the bench's own, wait for /healthz, sum the resident memory of its process tree,
// and stop it again.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/**
 * Starts `npm start` (exactly what a user types) with the embedded database in `dataDir`, the demo data
 * seeded, and the rest of the environment of a plain development start. Resolves once /healthz answers
 * 200, with the milliseconds from spawn to that answer.
 */
export const startProduct = async ({ dataDir, env = {}, timeoutMs = 120_000 }) => {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  const child = spawn(npm, ['start'], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_ORIGIN: origin,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      SEED_DEMO: '1',
      SKIP_WEB_BUILD: '',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // npm passes SIGTERM on to the script; whatever is left of the tree goes too.
      for (const pid of processTree(child.pid).reverse()) {
        try {
          process.kill(pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    }
    return exited;
  };
  while (performance.now() - startedAt < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok)
        return { ms: performance.now() - startedAt, cpuMs: treeCpuMs(child.pid), origin, pid: child.pid, stop };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  await stop();
  throw new Error(`npm start did not answer /healthz within ${timeoutMs / 1000} s`);
};

/** The pid and all its descendants (ps works on Linux and macOS). */
export const processTree = (pid) => {
  const rows = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const tree = [pid];
  for (let i = 0; i < tree.length; i += 1) {
    for (const [child, parent] of rows) if (parent === tree[i]) tree.push(child);
  }
  return tree;
};

/**
 * CPU time (user + system, including finished children such as the build) the tree of `pid` has used,
 * in ms; from /proc (Linux), undefined elsewhere. Unlike the wall time it hardly depends on what else the
 * machine is doing.
 */
export const treeCpuMs = (pid) => {
  if (process.platform !== 'linux') return undefined;
  const ticks = (p) => {
    try {
      const fields = readFileSync(`/proc/${p}/stat`, 'utf8')
        .replace(/^.*\) /, '')
        .split(' ');
      // After "(comm) ": state is field 3, utime..cstime are fields 14..17 (clock ticks of 10 ms).
      return [11, 12, 13, 14].reduce((t, i) => t + Number(fields[i]), 0);
    } catch {
      return 0; // gone meanwhile
    }
  };
  return processTree(pid).reduce((sum, p) => sum + ticks(p), 0) * 10;
};

/** Resident set of every process in the tree of `pid`, in bytes, with each process's command. */
export const treeRss = (pid) => {
  const pids = processTree(pid);
  const out = execFileSync('ps', ['-o', 'pid=,rss=,args=', '-p', pids.join(',')], { encoding: 'utf8' }).trim();
  const processes = out.split('\n').map((line) => {
    const [, p, rss, args] = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line) ?? [];
    return { pid: Number(p), rssBytes: Number(rss) * 1024, args: args ?? '' };
  });
  return { total: processes.reduce((sum, p) => sum + p.rssBytes, 0), processes };
};

export const MB = 1024 * 1024;
/** The 1-minute load average, to read a wall time against. */
export const load = () => loadavg()[0].toFixed(1);
export const mb = (bytes) => `${(bytes / MB).toFixed(0)} MB`;
