import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

/**
 * ADR 0075: `npm run chat` (the same scripts/start.mjs, with --chat) under a supervisor that signals the
 * PID it started, npm's, and nothing else: npm exits 0 only once the chat server has shut down gracefully.
 * `npm start` on the embedded database has the same checks in scripts/supervisor.test.mjs; the chat
 * process needs a PostgreSQL server, so it is checked in this pass.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `supervisor_${randomBytes(5).toString('hex')}`;
let dataDir: string;
let databaseUrl: string;
const groups: number[] = [];

const admin = async (sql: string): Promise<void> => {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

const listening = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** The processes of a process group still alive (or, with `zombies`, not yet reaped). */
const groupMembers = (pgid: number, { zombies = false } = {}): string[] =>
  execFileSync('ps', ['-A', '-o', 'pid=,pgid=,stat=,args='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && Number(m[2]) === pgid && (zombies || !(m[3] ?? '').startsWith('Z')))
    .map((m) => `${m[1]} ${m[4]}`);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'supervisor-chat-'));
  await admin(`CREATE DATABASE ${DB_NAME}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${DB_NAME}`;
  databaseUrl = url.toString();
});
afterEach(async () => {
  for (const pgid of groups.splice(0)) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // the group is gone
    }
    for (let i = 0; i < 100 && groupMembers(pgid, { zombies: true }).length > 0; i++) await sleep(100);
  }
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
});

describe('npm run chat under a supervisor that signals the PID it started (ADR 0075)', { timeout: 180_000 }, () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to npm's PID: npm exits 0 only after the chat server has shut down gracefully`, async () => {
      const port = await freePort();
      // As a supervisor starts it; a process group of its own only so that this test can clean up.
      const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'chat'], {
        cwd: ROOT,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? os.tmpdir(),
          NODE_ENV: 'development',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          SEED_DEMO: '0',
          LOG_LEVEL: 'info',
        },
      });
      const pid = child.pid ?? 0;
      groups.push(pid);
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.once('exit', (code, sig) => resolve({ code, signal: sig })),
      );
      for (let waited = 0; ; waited += 100) {
        if (child.exitCode !== null) throw new Error(`npm run chat exited early:\n${out}`);
        if (waited > 90_000) throw new Error(`no /healthz within 90 s:\n${out}`);
        const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
          (r) => r.ok,
          () => false,
        );
        if (ok) break;
        await sleep(100);
      }

      const sentAt = Date.now();
      process.kill(pid, signal);
      const exit = await Promise.race([exited, sleep(15_000).then(() => null)]);
      expect(exit, `npm did not exit within 15 s:\n${out}`).toEqual({ code: 0, signal: null });
      expect(Date.now() - sentAt).toBeLessThan(8_000);
      // When npm's PID is gone, so is the chat server.
      expect({ left: groupMembers(pid), open: await listening(port) }).toEqual({ left: [], open: false });
      expect(out).toContain('scripts/start.mjs --chat');
      expect(out).toMatch(new RegExp(`"signal":"${signal}".*shutting down`));
      expect(out).toMatch(/"exitCode":0,"forced":false,"failed":false,"msg":"shut down"/);
    });
  }
});
