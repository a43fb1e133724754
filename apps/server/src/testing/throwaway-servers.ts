import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * Servers a fault test may stop, freeze and start again (ADR 0074): a PostgreSQL cluster and a Redis of
 * its own, on free ports, in a temporary directory. The shared servers on 5432 and 6379 serve every other
 * test (and other runs at the same time): a test never stops those. Each helper stops its server when
 * the test process exits, however it exits.
 */

/** A port nobody listens on right now (the kernel's pick). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Single-quoted for sh. */
const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * A shell that runs `cleanup` once this process is gone, however it went (a test worker killed by the
 * runner runs no exit handler): a throwaway server never outlives its test. `cancel` when the test
 * cleaned up itself.
 */
const watchdog = (cleanup: string[][]): { cancel(): void } => {
  const commands = cleanup.map((argv) => argv.map(shellQuote).join(' ')).join('; ');
  const child = spawn('sh', ['-c', `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ${commands}`], {
    detached: true,
    stdio: 'ignore',
  });
  child.unref();
  return {
    cancel: () => {
      try {
        child.kill('SIGKILL');
      } catch {
        // gone already
      }
    },
  };
};

/** The newest PostgreSQL's binaries: /usr/lib/postgresql/<version>/bin (Debian, CI), else those on PATH. */
const postgresBinDir = (): string => {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return path.join(root, versions[0], 'bin');
  const found = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error('no PostgreSQL binaries (initdb): install PostgreSQL (CI: .ci/run) to run the fault tests');
  return path.dirname(found);
};

/** PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user (as CI's does). */
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const pgUser = (): { uid: number; gid: number } | undefined => {
  if (!asRoot) return undefined;
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const [uid, gid] = [id('-u'), id('-g')];
  if (uid.status !== 0 || gid.status !== 0) throw new Error('running as root needs a `postgres` user for the throwaway cluster');
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
};

/**
 * /tmp, not TMPDIR: CI points TMPDIR into the checkout, which the `postgres` user may not enter, and a
 * Unix socket's path must stay short.
 */
const tempRoot = (): string => (existsSync('/tmp') ? '/tmp' : os.tmpdir());

export interface ThrowawayPostgres {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  /** `pg_ctl stop`: fast (sessions ended, a clean shutdown) or immediate (a crash: recovery at the next start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  /** Starts it again on the same port and data; resolves when it accepts connections. */
  start(): Promise<void>;
  /** SIGSTOP to the postmaster and every backend: connections open but nothing answers (a hung server or network). */
  freeze(): void;
  /** SIGCONT: the frozen cluster goes on. */
  thaw(): void;
  /** Stops it (immediate) and deletes its directory. */
  destroy(): Promise<void>;
}

/**
 * A PostgreSQL cluster of one test (about a second): initdb into a temporary directory, then pg_ctl on a
 * free port, listening on 127.0.0.1 and on a Unix socket in that directory; trust authentication for
 * `postgres`. As root, the directory belongs to `postgres` and the binaries run through `runuser`.
 */
export const startThrowawayPostgres = async (): Promise<ThrowawayPostgres> => {
  const bin = postgresBinDir();
  const user = pgUser();
  const dir = mkdtempSync(path.join(tempRoot(), 'fault-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'server.log');
  const port = await freePort();
  const run = (tool: string, args: string[]): void => {
    const [command, argv] = user ? ['runuser', ['-u', 'postgres', '--', path.join(bin, tool), ...args]] : [path.join(bin, tool), args];
    const result = spawnSync(command, argv, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) {
      const log = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(-2000) : '';
      throw new Error(`${tool} ${args.join(' ')} failed (${result.status}): ${result.stderr}${result.stdout}\n${log}`);
    }
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync', '--no-instructions']);
  let running = false;
  // A clean shutdown never needs the disk flushed; a crash (immediate) still recovers from the WAL the
  // operating system holds. fsync off keeps a start and the test's writes fast on a busy machine.
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=50`;
  const start = async (): Promise<void> => {
    run('pg_ctl', ['-D', data, '-l', logFile, '-o', options, '-w', '-t', '30', 'start']);
    running = true;
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast'): Promise<void> => {
    if (!running) return;
    run('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '30', 'stop']);
    running = false;
  };
  const pids = (): number[] => {
    const pidFile = path.join(data, 'postmaster.pid');
    if (!existsSync(pidFile)) return [];
    const postmaster = Number(readFileSync(pidFile, 'utf8').split('\n')[0]);
    const children = spawnSync('pgrep', ['-P', String(postmaster)], { encoding: 'utf8' })
      .stdout.split('\n')
      .filter(Boolean)
      .map(Number);
    return [postmaster, ...children];
  };
  const signalAll = (signal: NodeJS.Signals): void => {
    for (const pid of pids()) {
      try {
        process.kill(pid, signal);
      } catch {
        // gone already
      }
    }
  };
  const pgCtl = (args: string[]): string[] =>
    user ? ['runuser', '-u', 'postgres', '--', path.join(bin, 'pg_ctl'), ...args] : [path.join(bin, 'pg_ctl'), ...args];
  // However the test process ends, the cluster does not outlive it (a frozen one is woken to stop).
  const guard = watchdog([
    [
      'sh',
      '-c',
      `pm=$(head -n 1 ${shellQuote(path.join(data, 'postmaster.pid'))} 2>/dev/null) && kill -CONT "$pm" && pkill -CONT -P "$pm"; true`,
    ],
    pgCtl(['-D', data, '-m', 'immediate', 'stop']),
    ['rm', '-rf', dir],
  ]);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    freeze: () => signalAll('SIGSTOP'),
    thaw: () => signalAll('SIGCONT'),
    destroy: async () => {
      signalAll('SIGCONT');
      await stop('immediate');
      guard.cancel();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

export interface ThrowawayRedis {
  /** redis://127.0.0.1:<port> */
  url: string;
  port: number;
  /** Kills the server (SIGKILL: no goodbye to its clients) and waits for it to be gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps nothing); resolves when it accepts commands. */
  start(): Promise<void>;
  destroy(): Promise<void>;
}

/** A Redis of one test, a child process on a free port, keeping nothing on disk. */
export const startThrowawayRedis = async (): Promise<ThrowawayRedis> => {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', os.tmpdir()],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = server;
    let out = '';
    server.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const deadline = Date.now() + 15_000;
    while (!/Ready to accept connections/.test(out)) {
      if (server.exitCode !== null) throw new Error(`redis-server exited (${server.exitCode}):\n${out}`);
      if (Date.now() > deadline) throw new Error(`redis-server did not start within 15 s:\n${out}`);
      await sleep(20);
    }
  };
  const stop = async (): Promise<void> => {
    const server = child;
    child = undefined;
    if (!server || server.exitCode !== null) return;
    const gone = new Promise<void>((resolve) => server.once('exit', () => resolve()));
    server.kill('SIGKILL');
    await gone;
  };
  // However the test process ends, this Redis does not outlive it.
  const guard = watchdog([['sh', '-c', `pkill -KILL -f -- ${shellQuote(`redis-server 127.0.0.1:${port}`)} || true`]]);
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop,
    start,
    destroy: async () => {
      await stop();
      guard.cancel();
    },
  };
};
