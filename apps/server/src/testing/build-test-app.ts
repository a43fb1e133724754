import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp, type BuildAppOptions } from '../app';
import { loadConfig, type Config } from '../config';
import { pgliteDb, pgliteOptions, postgresDb, type Db } from '../db/client';
import { migrate } from '../db/migrate';
import { seedDatabase } from '../db/seed';
import type { Clock } from '../lib/clock';
import type { Mailer } from '../modules/mail';
import { TEMPLATE_PATH } from './global-setup';

/** A clock tests move by hand. */
export interface TestClock extends Clock {
  set(date: Date): void;
  advance(ms: number): void;
}
export const createTestClock = (start = new Date()): TestClock => {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set: (date) => {
      current = date.getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
};

/**
 * A fresh database for one test file: the PGlite template dump, or (TEST_DATABASE_URL set) a new
 * database on that PostgreSQL server, migrated and seeded, dropped on close.
 */
export const createTestDb = async (): Promise<{ db: Db; drop: () => Promise<void>; url?: string }> => {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const blob = new Blob([readFileSync(TEMPLATE_PATH)]);
    const client = new PGlite({ ...pgliteOptions, loadDataDir: blob });
    await client.waitReady;
    const db = pgliteDb(client);
    return { db, drop: () => db.close() };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // As db/open.ts: migrations and the seed on a pool without the app's statement bound (ADR 0074), so a
  // busy machine never fails a test's set-up; the test gets a pool like the app's.
  const setup = postgresDb(url.toString(), { onIdleError: () => undefined, queryTimeoutMs: 0 });
  try {
    await migrate(setup);
    const { systemClock } = await import('../lib/clock');
    await seedDatabase(setup, { demo: true, clock: systemClock });
  } finally {
    await setup.close();
  }
  // The drop below ends this database's sessions; a pooled connection still closing then hears it.
  const db = postgresDb(url.toString(), { onIdleError: () => undefined });
  return {
    db,
    url: url.toString(),
    drop: async () => {
      await db.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      // pool.end() resolves before its sockets are closed: let the sessions leave (up to 5 s) rather
      // than end them under a client that is still closing.
      for (let i = 0; i < 50; i += 1) {
        const { rows } = await cleanup.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [name]);
        if ((rows[0]?.n ?? 0) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
};

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  clock: TestClock;
  config: Config;
  close(): Promise<void>;
}

export const buildTestApp = async (
  opts: {
    clock?: TestClock;
    mailer?: Mailer;
    env?: Record<string, string>;
    onChatReady?: BuildAppOptions['onChatReady'];
    onMailReady?: BuildAppOptions['onMailReady'];
    /** ADR 0088: the notifications job, to run by hand. */
    onNotificationJobs?: BuildAppOptions['onNotificationJobs'];
    /** A database another app of the test shares (two instances on one PostgreSQL); the caller drops it. */
    db?: Db;
    /** Where log lines go (with LOG_LEVEL set in `env`: tests read what the server logged). */
    logStream?: BuildAppOptions['logStream'];
  } = {},
): Promise<TestApp> => {
  const { db, drop } = opts.db ? { db: opts.db, drop: async () => undefined } : await createTestDb();
  const clock = opts.clock ?? createTestClock();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '3000',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    ...opts.env,
  });
  const app = await buildApp({
    config,
    db,
    clock,
    serveWeb: false,
    ...(opts.mailer ? { mailer: opts.mailer } : {}),
    ...(opts.onChatReady ? { onChatReady: opts.onChatReady } : {}),
    ...(opts.onMailReady ? { onMailReady: opts.onMailReady } : {}),
    ...(opts.onNotificationJobs ? { onNotificationJobs: opts.onNotificationJobs } : {}),
    ...(opts.logStream ? { logStream: opts.logStream } : {}),
  });
  await app.ready();
  return {
    app,
    db,
    clock,
    config,
    close: async () => {
      await app.close();
      await drop();
    },
  };
};
