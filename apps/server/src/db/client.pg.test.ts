import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { postgresDb, type Db } from './client';

// A PostgreSQL server, as the machine and CI run one (README "Running at scale"); the server suite's
// own database when TEST_DATABASE_URL is set.
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const opened: Db[] = [];
afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
});

describe('postgresDb', () => {
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
