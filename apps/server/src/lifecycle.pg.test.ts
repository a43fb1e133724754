import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * ADR 0033: graceful shutdown with a deadline and fatal errors with their stack, on the real
 * server process (apps/server/src/main.ts through tsx, as `npm start` runs it).
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const MAIN = path.join(ROOT, 'apps/server/src/main.ts');
// A PostgreSQL server in both test passes (as db/client.pg.test.ts): a fresh database starts in a
// second or two, a fresh embedded one takes far longer on a busy machine.
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = `lifecycle_${randomBytes(5).toString('hex')}`;
let dataDir: string;
let databaseUrl: string;

const admin = async (sql: string): Promise<void> => {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'lifecycle-'));
  await admin(`CREATE DATABASE ${DB_NAME}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${DB_NAME}`;
  databaseUrl = url.toString();
});
afterAll(async () => {
  rmSync(dataDir, { recursive: true, force: true });
  await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
});

interface Server {
  child: ChildProcess;
  port: number;
  output: () => string;
  exited: Promise<{ code: number | null; at: number }>;
}

/** Starts the server on a free port; resolves once it listens. */
const startServer = async (env: Record<string, string>): Promise<Server> => {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'development',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      SEED_DEMO: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, at: Date.now() })),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setInterval(() => {
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (match) {
        clearInterval(timer);
        resolve(Number(match[1]));
      }
    }, 50);
    void exited.then(({ code }) => {
      clearInterval(timer);
      reject(new Error(`server exited with ${code} before listening:\n${out}`));
    });
  });
  return { child, port, output: () => out, exited };
};

/** A request whose headers are sent and whose body (of `length` bytes) is not; answers the socket and what it reads. */
const startUpload = async (port: number, length: number, firstPart: string) => {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
  socket.on('error', () => undefined);
  const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
  socket.write(
    `POST /api/checkmail HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${firstPart}`,
  );
  return { socket, received: () => received, closed };
};

/**
 * Waits until the server has read the upload's headers (its request log names the path): a SIGTERM before
 * that finds an idle connection, which the shutdown rightly closes, and the test would race the server.
 */
const requestStarted = async (server: { output: () => string }, pathname: string): Promise<void> => {
  for (let waited = 0; !server.output().includes(pathname); waited += 25) {
    if (waited > 15_000) throw new Error(`the server never logged ${pathname}:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

const uploadBody = (email: string): string => JSON.stringify({ email, padding: 'x'.repeat(4000) });

describe('graceful shutdown (SIGTERM)', () => {
  it('lets an upload in flight finish, then exits 0', { timeout: 180_000 }, async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '10000' });
    const body = uploadBody('slow-upload@example.com');
    const upload = await startUpload(server.port, body.length, body.slice(0, 100));
    await requestStarted(server, '/api/checkmail');
    // An idle keep-alive connection does not hold the shutdown up.
    const idle = net.connect(server.port, '127.0.0.1');
    await new Promise((resolve) => idle.once('connect', resolve));
    idle.on('error', () => undefined);

    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 800));
    // The listener is closed to newcomers...
    const refused = await fetch(`http://127.0.0.1:${server.port}/healthz`).then(
      () => false,
      () => true,
    );
    expect(refused).toBe(true);
    // ...while the upload that started before goes on and gets its answer.
    upload.socket.write(body.slice(100));
    // The answer's bytes and the process's exit reach this test by two channels in either order: wait for
    // both (the socket closes when the server is gone, so an unanswered upload still fails below).
    const [{ code }] = await Promise.all([server.exited, upload.closed]);
    expect(upload.received()).toMatch(/^HTTP\/1\.1 200 /);
    expect(code, server.output()).toBe(0);
    expect(server.output()).toContain('shutting down');
  });

  it('cuts an upload that outlives SHUTDOWN_TIMEOUT_MS and exits 1', { timeout: 180_000 }, async () => {
    const server = await startServer({ SHUTDOWN_TIMEOUT_MS: '1500' });
    const body = uploadBody('stalled-upload@example.com');
    const upload = await startUpload(server.port, body.length, body.slice(0, 100));
    await requestStarted(server, '/api/checkmail');
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    const [closedAt, { code, at }] = await Promise.all([upload.closed, server.exited]);
    expect(closedAt - signalledAt).toBeGreaterThanOrEqual(1400);
    expect(at - signalledAt).toBeLessThan(15_000);
    expect(upload.received()).not.toMatch(/^HTTP\/1\.1 200 /);
    expect(code).toBe(1);
    expect(server.output()).toContain('shutdown deadline passed');
  });
});

describe('fatal errors', () => {
  it('are logged at fatal with their stack, and the process exits 1', { timeout: 180_000 }, async () => {
    // The port is taken: listen fails after the app is built, an error no request handler sees.
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH ?? '',
          NODE_ENV: 'development',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: databaseUrl,
          SEED_DEMO: '0',
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(1);
      const fatal = out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string; stack: string } })
        .find((entry) => entry.level === 60);
      expect(fatal?.msg).toBe('could not start');
      expect(fatal?.err?.message).toMatch(/EADDRINUSE/);
      expect(fatal?.err?.stack).toMatch(/\n\s+at /);
    } finally {
      blocker.close();
    }
  });

  it('an uncaught exception or unhandled rejection is logged at fatal with its stack, then exit 1', { timeout: 60_000 }, async () => {
    for (const [kind, fault] of [
      ['uncaught exception', "setTimeout(() => { throw new Error('kaboom'); }, 10);"],
      ['unhandled promise rejection', "setTimeout(() => { void Promise.reject(new Error('kaboom')); }, 10);"],
    ] as const) {
      const script = [
        "const Fastify = (await import('fastify')).default;",
        `const { exitOnFatalErrors } = await import(${JSON.stringify(path.join(ROOT, 'apps/server/src/lifecycle.ts'))});`,
        "const app = Fastify({ logger: { level: 'info' } });",
        'exitOnFatalErrors(() => app.log, (code) => process.exit(code));',
        'setTimeout(() => undefined, 30_000);',
        fault,
      ].join('\n');
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: path.join(ROOT, 'apps/server'),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code, out).toBe(1);
      const entry = JSON.parse(out.split('\n').find((line) => line.includes('"level":60')) ?? '{}') as {
        msg?: string;
        err?: { stack?: string };
      };
      expect(entry.msg).toBe(kind);
      expect(entry.err?.stack).toMatch(/^Error: kaboom\n\s+at /);
    }
  });
});
