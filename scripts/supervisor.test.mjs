// ADR 0075: `npm start` under a supervisor. A container runtime, systemd or a script sends its signal to
// the one PID it started, npm's, and nothing else. The server must then shut down gracefully, and npm's
// PID must live until it has: a supervisor that restarts the service on that exit (or a container whose
// PID 1 exits, taking the rest with SIGKILL) would otherwise meet a server still holding the port and the
// embedded database's lock. Each test starts the real `npm start` in a process group of its own (only so
// the test can clean up), signals npm's PID alone, and checks what is left.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// One embedded database for the file (the tests run one after the other): only the first start creates it.
const dataDir = mkdtempSync(path.join(tmpdir(), 'supervisor-'));
const started = [];

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether something accepts connections on the port. */
const listening = (port) =>
  new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** The live processes of a process group (zombies left for their new parent to reap are not alive, unless asked). */
const groupMembers = (pgid, { zombies = false } = {}) =>
  execFileSync('ps', ['-A', '-o', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m) => m && Number(m[2]) === pgid && (zombies || !m[3].startsWith('Z')))
    .map((m) => `${m[1]} ${m[4]}`);

/** `npm <args>` as a supervisor starts it, in a process group of its own; resolves once /healthz answers. */
const start = async (args = ['start']) => {
  const port = await freePort();
  const child = spawn(npm, args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      // Another folder than apps/web/dist: nothing to serve, and so no web build (ADR 0075).
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      SEED_DEMO: '0',
      API_DOCS: '0',
      LOG_LEVEL: 'info',
    },
  });
  started.push(child.pid);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk.toString()));
  child.stderr.on('data', (chunk) => (output += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() })));
  const until = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`npm ${args.join(' ')} exited early:\n${output}`);
    if (Date.now() > until) throw new Error(`no /healthz within 90 s:\n${output}`);
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await sleep(100);
  }
  return { pid: child.pid, port, exited, output: () => output };
};

/** Signals npm's PID alone, as a supervisor does, and waits (at most 15 s) for npm to exit. */
const stopNpm = async (server, signal) => {
  const sentAt = Date.now();
  process.kill(server.pid, signal);
  const exit = await Promise.race([server.exited, sleep(15_000).then(() => null)]);
  if (!exit) throw new Error(`npm did not exit within 15 s of ${signal}:\n${server.output()}`);
  return { ...exit, ms: exit.at - sentAt };
};

/** Waits (at most `ms`) until the group has no live process and the port is closed. */
const waitUntilDown = async (server, ms) => {
  const until = Date.now() + ms;
  while (Date.now() < until && (groupMembers(server.pid).length > 0 || (await listening(server.port)))) await sleep(100);
};

const expectGracefulShutdown = (output, signal) => {
  expect(output).toMatch(new RegExp(`"signal":"${signal}".*shutting down`));
  expect(output).toMatch(/"exitCode":0,"forced":false,"failed":false,"msg":"shut down"/);
};

/** The lock is gone and the data directory takes a new server: start one, stop it the same way. */
const expectDataDirFree = async () => {
  expect(existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
  const again = await start();
  expect(await stopNpm(again, 'SIGTERM')).toMatchObject({ code: 0 });
};

afterEach(async () => {
  // Whatever a failed test left behind.
  for (const pid of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // the group is gone
    }
    // Until reaped: the lock file's holder counts as alive while it is a zombie.
    for (let i = 0; i < 100 && groupMembers(pid, { zombies: true }).length > 0; i++) await sleep(100);
  }
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// A start on a busy machine takes seconds; the first one creates the database.
describe('npm start under a supervisor that signals the PID it started (ADR 0075)', { timeout: 180_000 }, () => {
  for (const signal of ['SIGTERM', 'SIGINT']) {
    it(`${signal} to npm's PID: npm exits 0 only after the server has shut down gracefully and let go of the port and DATA_DIR`, async () => {
      const server = await start();
      const exit = await stopNpm(server, signal);
      // At the moment npm's PID is gone, so is the server: nothing of the group is alive, the port is closed.
      const left = groupMembers(server.pid);
      const open = await listening(server.port);
      expect({ left, open }).toEqual({ left: [], open: false });
      expect(exit).toMatchObject({ code: 0, signal: null });
      expect(exit.ms).toBeLessThan(8_000);
      expectGracefulShutdown(server.output(), signal);
      await expectDataDirFree();
    });
  }

  it('npm killed outright (SIGKILL, which it cannot pass on): the server notices it lost its parent and shuts down gracefully', async () => {
    const server = await start();
    process.kill(server.pid, 'SIGKILL');
    await server.exited;
    await waitUntilDown(server, 8_000);
    const left = groupMembers(server.pid);
    const open = await listening(server.port);
    expect({ left, open }).toEqual({ left: [], open: false });
    expect(server.output()).toMatch(/the process that started this one \(pid \d+\) has gone; shutting down/);
    expectGracefulShutdown(server.output(), 'SIGTERM');
    await expectDataDirFree();
  });
});
