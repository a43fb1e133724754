import { spawn } from 'node:child_process';
import { childProcessEnv } from '../config';
import { postgresDb } from './client';

/**
 * ADR 0082: a PostgreSQL server is backed up with its own tools. `pg_dump --format=custom` reads every table
 * in one snapshot (REPEATABLE READ, read-only; it does not block the application's writes), and
 * `pg_restore --single-transaction --exit-on-error` loads it all or nothing. The password never goes on a
 * command line (`ps` shows it): the connection is passed in libpq's environment variables.
 */

export class PgToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PgToolError';
  }
}

/** libpq's environment for a postgres:// URL (host, port, user, password, database, sslmode). */
export const libpqEnv = (databaseUrl: string): Record<string, string> => {
  const url = new URL(databaseUrl);
  const env: Record<string, string> = {};
  if (url.hostname) env.PGHOST = decodeURIComponent(url.hostname.replace(/^\[|\]$/g, ''));
  if (url.port) env.PGPORT = url.port;
  if (url.username) env.PGUSER = decodeURIComponent(url.username);
  if (url.password) env.PGPASSWORD = decodeURIComponent(url.password);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (database) env.PGDATABASE = database;
  const host = url.searchParams.get('host');
  if (host) env.PGHOST = host;
  const sslmode = url.searchParams.get('sslmode');
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
};

const run = (tool: string, args: readonly string[], databaseUrl: string): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn(tool, [...args], {
      env: childProcessEnv(libpqEnv(databaseUrl)),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 8_000) stderr += chunk.toString('utf8');
    });
    child.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new PgToolError(`${tool} was not found on PATH: install the PostgreSQL client tools of the server's major version (or newer).`)
          : error,
      ),
    );
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new PgToolError(`${tool} failed (${code ?? signal}): ${stderr.trim() || 'no message'}`)),
    );
  });

/** One consistent dump of the whole database in pg_dump's custom format. */
export const pgDump = (databaseUrl: string, file: string): Promise<void> =>
  run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', '--file', file], databaseUrl);

/** Loads a dump into an empty database in one transaction: all of it or nothing. */
export const pgRestore = (databaseUrl: string, file: string): Promise<void> =>
  // --dbname names the database (not secret): without it pg_restore would print SQL instead of loading it.
  run(
    'pg_restore',
    [
      '--no-owner',
      '--no-privileges',
      '--single-transaction',
      '--exit-on-error',
      '--dbname',
      libpqEnv(databaseUrl).PGDATABASE ?? 'postgres',
      file,
    ],
    databaseUrl,
  );

/** The tables (and sequences, views) in the database outside PostgreSQL's own schemas: 0 means empty. */
export const countUserRelations = async (databaseUrl: string): Promise<number> => {
  const db = postgresDb(databaseUrl, { prepared: false, onIdleError: () => undefined });
  try {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'`,
    );
    return row?.n ?? 0;
  } finally {
    await db.close();
  }
};
