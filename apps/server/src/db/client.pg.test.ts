import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { postgresDb, type Db } from './client';

// A PostgreSQL server, as the machine and CI run one (docs/operations.md "Running at scale"); the server suite's
// own database when TEST_DATABASE_URL is set.
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const opened: Db[] = [];
afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
});

describe('postgresDb', () => {
  // ADR 0063: queries with parameters are named prepared statements, planned once per connection.
  it('prepares a query with parameters once per connection, and sends one without them as it is', async () => {
    const db = postgresDb(SERVER_URL);
    opened.push(db);
    const sql = `SELECT $1::int + 1 AS n, '${randomBytes(4).toString('hex')}' AS tag`;
    await db.transaction(async (tx) => {
      expect(await tx.query<{ n: number }>(sql, [1])).toMatchObject([{ n: 2 }]);
      expect(await tx.query<{ n: number }>(sql, [2])).toMatchObject([{ n: 3 }]);
      const prepared = await tx.query<{ name: string }>('SELECT name FROM pg_prepared_statements WHERE statement = $1', [sql]);
      expect(prepared).toHaveLength(1);
    });
    const unnamed = postgresDb(SERVER_URL, { prepared: false });
    opened.push(unnamed);
    await unnamed.transaction(async (tx) => {
      expect(await tx.query<{ n: number }>(sql, [5])).toMatchObject([{ n: 6 }]);
      expect(await tx.query('SELECT name FROM pg_prepared_statements WHERE statement = $1', [sql])).toHaveLength(0);
    });
  });

  it('prepares a statement afresh when a migration changed its table under it', async () => {
    const table = `prep_${randomBytes(4).toString('hex')}`;
    const db = postgresDb(SERVER_URL);
    opened.push(db);
    const select = `SELECT * FROM ${table} WHERE a = $1`;
    await db.query(`CREATE TABLE ${table} (a int)`);
    try {
      await db.query(`INSERT INTO ${table} (a) VALUES ($1)`, [1]);
      // Outside a transaction: answered at once (the pool hands back the connection that prepared it).
      expect(await db.query(select, [1])).toEqual([{ a: 1 }]);
      await db.query(`ALTER TABLE ${table} ADD COLUMN b int NOT NULL DEFAULT 7`);
      expect(await db.query(select, [1])).toEqual([{ a: 1, b: 7 }]);
      // Inside one: that transaction fails, and the next attempt works.
      await db.transaction(async (tx) => expect(await tx.query(select, [1])).toEqual([{ a: 1, b: 7 }]));
      await db.query(`ALTER TABLE ${table} ADD COLUMN c int NOT NULL DEFAULT 8`);
      await expect(db.transaction((tx) => tx.query(select, [1]))).rejects.toMatchObject({ code: '0A000' });
      expect(await db.transaction((tx) => tx.query(select, [1]))).toEqual([{ a: 1, b: 7, c: 8 }]);
    } finally {
      await db.query(`DROP TABLE ${table}`);
    }
  });

  it('keeps serving after the server ends one of its idle connections, and reports it', async () => {
    const appName = `idle-test-${randomBytes(4).toString('hex')}`;
    const url = new URL(SERVER_URL);
    url.searchParams.set('application_name', appName);
    const onIdleError = vi.fn();
    const db = postgresDb(url.toString(), { onIdleError });
    opened.push(db);
    expect(await db.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);

    const admin = new pg.Client({ connectionString: SERVER_URL });
    await admin.connect();
    try {
      const { rows } = await admin.query<{ ended: boolean }>(
        'SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE application_name = $1',
        [appName],
      );
      expect(rows).toEqual([{ ended: true }]);
    } finally {
      await admin.end();
    }

    await vi.waitFor(() => expect(onIdleError).toHaveBeenCalledTimes(1));
    expect((onIdleError.mock.calls[0]?.[0] as Error).message).toMatch(/terminat/);
    expect(await db.query<{ two: number }>('SELECT 2 AS two')).toEqual([{ two: 2 }]);
  });
});
