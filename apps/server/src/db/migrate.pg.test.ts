import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../lib/clock';
import { postgresDb, type Db } from './client';
import { migrate } from './migrate';
import { seedDatabase } from './seed';

/**
 * docs/operations.md "Running at scale": instances started at the same moment on one empty PostgreSQL database
 * migrate and seed it once, without errors, and leave no lock behind. A PostgreSQL server in both test
 * passes (as db/client.pg.test.ts).
 */
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MIGRATIONS = readdirSync(path.join(import.meta.dirname, 'migrations'))
  .filter((f) => f.endsWith('.sql'))
  .sort();
const name = `migrate_race_${randomBytes(5).toString('hex')}`;
let url: string;
const opened: Db[] = [];
/** While true, every instance's pool keeps serving other queries (see the test). */
let starting = true;

const admin = async <T>(fn: (client: pg.Client) => Promise<T>): Promise<T> => {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
};

beforeAll(async () => {
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const u = new URL(SERVER_URL);
  u.pathname = `/${name}`;
  url = u.toString();
});
afterAll(async () => {
  starting = false;
  await Promise.all(opened.map((db) => db.close()));
  await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
});

describe('several instances starting at once on an empty database', () => {
  it('apply each migration once, seed once, and leave no advisory lock behind', { timeout: 60_000 }, async () => {
    const instances = Array.from({ length: 4 }, () => {
      const db = postgresDb(url, { onIdleError: () => undefined });
      opened.push(db);
      return db;
    });
    // Each instance's pool also serves other queries meanwhile (health checks, early requests), so its
    // migration steps do not all run on one connection.
    const busy = instances.map(async (db) => {
      while (starting) await Promise.all(Array.from({ length: 3 }, () => db.query('SELECT pg_sleep(0.002)')));
    });
    const applied = await Promise.all(
      instances.map(async (db) => {
        const mine = await migrate(db);
        await seedDatabase(db, { demo: false, clock: systemClock });
        return mine;
      }),
    );
    starting = false;
    await Promise.all(busy);

    expect(applied.flat().sort()).toEqual(MIGRATIONS);
    const [db] = instances;
    if (!db) throw new Error('no instance');
    const recorded = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(recorded.map((r) => r.name)).toEqual(MIGRATIONS);
    expect(await db.query<{ n: number }>('SELECT count(*)::int AS n FROM site_settings')).toEqual([{ n: 1 }]);
    const locks = await admin((c) =>
      c.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND d.datname = $1",
        [name],
      ),
    );
    expect(locks.rows).toEqual([{ n: 0 }]);
  });
});
