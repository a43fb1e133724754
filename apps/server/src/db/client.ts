import { spawn } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { cp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import path from 'node:path';
import { PGlite, protocol } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type PgModule from 'pg';

/** The one interface repositories use: PGlite embedded or a PostgreSQL server behind it (ADR 0002). */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * Inside a transaction: runs `fn` once it committed (never when it rolls back), e.g. a wake-up that
   * others answer by reading what the transaction wrote (ADR 0088). Outside one (the Db itself): absent.
   */
  afterCommit?(fn: () => void): void;
}

/** The after-commit callbacks of one transaction, run once it committed; a failing one does not fail the others. */
const commitHooks = () => {
  const hooks: (() => void)[] = [];
  return {
    add: (fn: () => void) => void hooks.push(fn),
    run: () => {
      for (const fn of hooks.splice(0))
        try {
          fn();
        } catch (error) {
          process.stderr.write(`database: an after-commit step failed: ${error instanceof Error ? error.message : String(error)}\n`);
        }
    },
  };
};
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn in one transaction; keep it short (PGlite has one connection). */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Connections for /metrics: open, idle, and queries waiting for one (PGlite: its one connection). */
  pool(): PoolStats;
  /**
   * Embedded on disk only (ADR 0082): copies the data directory to `target` (which must not exist) as a
   * consistent snapshot while the database keeps serving: no transaction is open, no query runs, and a
   * CHECKPOINT has written every page, for the length of the copy.
   */
  snapshotDataDir?(target: string): Promise<void>;
}
/**
 * PostgreSQL's unique_violation (23505), from the server (pg) and from PGlite alike; with `constraint`,
 * only that constraint's.
 */
export const isUniqueViolation = (error: unknown, constraint?: string): boolean =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === '23505' &&
  (constraint === undefined || (error as { constraint?: unknown }).constraint === constraint);

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * node-postgres, loaded the first time a PostgreSQL server is used: an embedded start never pays for it
 * (ADR 0058). Synchronous (a CommonJS require), so postgresDb stays synchronous.
 */
let pgModule: typeof PgModule | undefined;
const loadPg = (): typeof PgModule => {
  if (pgModule) return pgModule;
  const pg = createRequire(import.meta.url)('pg') as typeof PgModule;
  // int8 (count(*), bigserial) as JavaScript numbers; our ids and counts stay far below 2^53.
  pg.types.setTypeParser(20, (v) => Number(v));
  // numeric as number
  pg.types.setTypeParser(1700, (v) => Number(v));
  pgModule = pg;
  return pg;
};

/**
 * Without parameters node-postgres sends a simple query, which may hold several statements (a migration
 * file); PGlite's query() prepares it and refuses. exec() is PGlite's simple query: the last result answers.
 */
const pgliteQuery =
  (target: Pick<PGlite, 'query' | 'exec'>) =>
  async <T>(sql: string, params: readonly unknown[] = []): Promise<T[]> =>
    params.length === 0 ? (((await target.exec(sql)).at(-1)?.rows ?? []) as T[]) : (await target.query<T>(sql, params as unknown[])).rows;

export const pgliteDb = (client: PGlite, { dataDir }: { dataDir?: string } = {}): Db => {
  const query = pgliteQuery(client);
  // PGlite runs one query at a time on its one connection; the count of calls not yet answered says
  // whether it is busy (1 - idle) and how many wait behind it.
  let pending = 0;
  const counted = async <R>(run: () => Promise<R>): Promise<R> => {
    pending += 1;
    try {
      return await run();
    } finally {
      pending -= 1;
    }
  };
  return {
    kind: 'pglite',
    query: <T>(sql: string, params?: readonly unknown[]) => counted(() => query<T>(sql, params)),
    transaction: async (fn) => {
      const hooks = commitHooks();
      const result = await counted(() => client.transaction((tx) => fn({ query: pgliteQuery(tx), afterCommit: hooks.add })));
      hooks.run();
      return result;
    },
    close: () => client.close(),
    pool: () => ({ total: 1, idle: pending === 0 ? 1 : 0, waiting: Math.max(0, pending - 1) }),
    ...(dataDir === undefined
      ? {}
      : {
          // ADR 0082: PGlite's transaction lock (no transaction is open: a transaction's queries each take the
          // query lock, and one may wait between them) and then its query lock (nothing runs); inside both,
          // a CHECKPOINT through the protocol (which takes no lock) and a copy of the files.
          snapshotDataDir: (target: string) =>
            counted(() =>
              client._runExclusiveTransaction(() =>
                client.runExclusive(async () => {
                  await client.execProtocol(protocol.serialize.query('CHECKPOINT'));
                  await cp(dataDir, target, { recursive: true, errorOnExist: true, force: false, mode: constants.COPYFILE_FICLONE });
                  // The running database's PID file: the copy is of a database no process runs.
                  await rm(path.join(target, 'postmaster.pid'), { force: true });
                }),
              ),
            ),
        }),
  };
};

/**
 * ADR 0074: how long a request waits for the database before it is told the service is unavailable.
 * A connection (a new one, or a free one of the pool's) within CONNECT_TIMEOUT_MS, an answer to each
 * statement within QUERY_TIMEOUT_MS: a server that is down, restarting or hung (frozen, or its network
 * gone) costs a request at most about ten seconds, never an open-ended wait. Migrations and the seed run
 * on a pool of their own without the statement bound (db/open.ts): a long migration is not a hang.
 */
export const CONNECT_TIMEOUT_MS = 4_000;
export const QUERY_TIMEOUT_MS = 5_000;

/** Socket errors of a server that is gone or unreachable. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs of a server that cannot serve now: class 08 (connection exception), 57P01–57P03 (shut down
 * by an administrator, crashed, starting up or shutting down), 53300 (too many connections).
 */
const UNAVAILABLE_STATES = /^(08\w{3}|57P0[123]|53300)$/;
/** node-postgres's own words for a connection that ended or never came, and for a statement past its bound. */
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connection error and is not queryable|Client was closed and is not queryable/i;

/**
 * ADR 0074: whether an error says the database cannot be reached now (down, restarting, hung, out of
 * connections) rather than that a statement is wrong. The error handler answers these with 503.
 */
export const isDatabaseUnavailable = (error: unknown): boolean => {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, errors } = error as { code?: unknown; message?: unknown; errors?: unknown };
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
  // Node's connect to `localhost` tries each address and fails with all of their errors.
  return Array.isArray(errors) && errors.some(isDatabaseUnavailable);
};

/** Distinct SQL texts one pool prepares (the code base has a few hundred). */
const PREPARED_MAX = 1000;

/**
 * A pg pool. An idle pooled connection that the server ends (a restart, an administrator, a dropped
 * test database) makes the pool emit 'error'; pg then throws it as an uncaught exception unless it is
 * listened to. The pool has already dropped that connection and opens a new one for the next query,
 * so the error is only reported (`onIdleError`, by default to stderr).
 */
export const postgresDb = (
  connectionString: string,
  {
    onIdleError = (error: Error) => process.stderr.write(`database: an idle connection ended: ${error.message}\n`),
    prepared = true,
    queryTimeoutMs = QUERY_TIMEOUT_MS,
  }: {
    onIdleError?: (error: Error) => void;
    prepared?: boolean;
    /** 0: no bound (migrations, the seed) */
    queryTimeoutMs?: number;
  } = {},
): Db => {
  const pool = new (loadPg().Pool)({
    connectionString,
    max: 10,
    // ADR 0074: a connection within CONNECT_TIMEOUT_MS (waiting for a free one included), each answer within
    // queryTimeoutMs; a statement past it ends its connection (the pool opens a fresh one). TCP keepalive
    // finds a connection whose server vanished without a word.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    ...(queryTimeoutMs > 0 ? { query_timeout: queryTimeoutMs } : {}),
    keepAlive: true,
  });
  pool.on('error', (error) => onIdleError(error));
  // ADR 0063: a query with parameters is a named prepared statement, so PostgreSQL parses and plans it once
  // per connection, not on every call (a third of a chat send's database time). The SQL texts are the
  // repositories' constants; past PREPARED_MAX distinct texts the rest go unnamed, so a connection's
  // statements stay bounded.
  const names = new Map<string, string>();
  let named = 0;
  const nameOf = (sql: string, renew = false): string | undefined => {
    if (!prepared) return undefined;
    let name = renew ? undefined : names.get(sql);
    if (name === undefined && (renew || names.size < PREPARED_MAX)) {
      name = `q${(named += 1)}`;
      names.set(sql, name);
    }
    return name;
  };
  const run = async <T>(target: Pick<PgModule.PoolClient, 'query'>, sql: string, params: readonly unknown[]): Promise<T[]> => {
    const values = params as unknown[];
    const name = params.length === 0 ? undefined : nameOf(sql);
    if (name === undefined) return (await target.query(sql, values)).rows as T[];
    try {
      return (await target.query({ name, text: sql, values })).rows as T[];
    } catch (error) {
      // Another instance's migration changed a table under a statement the connections had prepared
      // ("cached plan must not change result type"): the text gets a new name, prepared afresh; at once
      // outside a transaction, on the transaction's next attempt inside one (it is aborted now).
      if ((error as { code?: unknown }).code !== '0A000') throw error;
      const renamed = nameOf(sql, true);
      if (target !== pool) throw error;
      return (await target.query({ name: renamed, text: sql, values })).rows as T[];
    }
  };
  const query = <T>(sql: string, params: readonly unknown[] = []): Promise<T[]> => run<T>(pool, sql, params);
  return {
    kind: 'postgres',
    query,
    transaction: async (fn) => {
      const conn = await pool.connect();
      // A checked-out connection has no listener of the pool's: the server ending it while the transaction
      // awaits other work (a file, a lock, a mail) would be an uncaught 'error'. Its next statement fails
      // and is handled below; the event itself only needs hearing (ADR 0074).
      const heard = (error: Error) => onIdleError(error);
      conn.on('error', heard);
      const done = () => conn.removeListener('error', heard);
      const hooks = commitHooks();
      try {
        await conn.query('BEGIN');
        const result = await fn({
          query: <T>(sql: string, params: readonly unknown[] = []) => run<T>(conn, sql, params),
          afterCommit: hooks.add,
        });
        await conn.query('COMMIT');
        done();
        conn.release();
        hooks.run();
        return result;
      } catch (error) {
        // A connection that failed (or whose statement passed its bound) is closed, not given back: its
        // late answer must never reach the next transaction.
        if (isDatabaseUnavailable(error)) {
          done();
          conn.release(error instanceof Error ? error : true);
        } else {
          await conn.query('ROLLBACK').catch(() => undefined);
          done();
          conn.release();
        }
        throw error;
      }
    },
    close: () => pool.end(),
    pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
};

/** PGlite parses int8 as bigint by default; make it a number like node-postgres above. */
const pgliteParsers = {
  20: (v: string) => Number(v),
  1700: (v: string) => Number(v),
};

/**
 * What every embedded database is opened with: the parsers above and the extensions the migrations
 * create (pg_trgm, migration 0020, ADR 0081), whose code PGlite loads from its own bundle.
 */
export const pgliteOptions = { parsers: pgliteParsers, extensions: { pg_trgm } };

/**
 * PostgreSQL settings of the embedded database (ADR 0031). PGlite's WASM heap never gives memory back,
 * and PostgreSQL's default 128 MB of shared buffers are all touched at start. Pages not in these buffers
 * come from the operating system's file cache, a copy away.
 */
export const EMBEDDED_SETTINGS = { shared_buffers: '4MB' } as const;

export const embeddedStartParams = (): string[] => [
  ...PGlite.defaultStartParams,
  ...Object.entries(EMBEDDED_SETTINGS).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
];

/**
 * V8 compiles WebAssembly with its baseline compiler (Liftoff) and then recompiles hot functions with its
 * optimising one (TurboFan) on background threads. PGlite's module is large and PostgreSQL's start makes
 * much of it hot at once: the recompilation keeps a 2-core machine busy and holds the main thread for
 * about a second after the database is ready (measured: ready and the next event-loop turn 1.9–3.3 s by
 * default, 0.7–1.3 s with Liftoff only; heavy SQL costs about 15 % more CPU with Liftoff only). A start
 * matters more for the embedded database than peak SQL speed (ADR 0058), so by default only Liftoff
 * runs; EMBEDDED_DB_OPTIMIZE=1 keeps V8's default. The flag is process-wide and read when a module is
 * compiled, so it is set before PGlite compiles its module.
 */
export const LIFTOFF_ONLY_FLAG = '--liftoff-only';
const useBaselineWasmCompilerOnly = (): void => v8.setFlagsFromString(LIFTOFF_ONLY_FLAG);

/** Runs create-embedded.mjs: initdb in a process of its own, whose memory goes when it exits. */
const createEmbedded = (dataDir: string, optimize: boolean): Promise<void> =>
  new Promise((resolve, reject) => {
    const flags = optimize ? [] : [LIFTOFF_ONLY_FLAG];
    const child = spawn(
      process.execPath,
      [...flags, path.join(import.meta.dirname, 'create-embedded.mjs'), dataDir, JSON.stringify(embeddedStartParams())],
      {
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`Could not create the embedded database in ${dataDir} (initdb exited with ${code ?? signal})`)),
    );
  });

/**
 * Opens PGlite on `dataDir` (undefined: in memory). A data directory without a database is created
 * first by a separate process (createEmbedded), so this process never holds initdb's memory.
 */
export const openEmbedded = async (dataDir: string | undefined, { optimize = false }: { optimize?: boolean } = {}): Promise<Db> => {
  if (!optimize) useBaselineWasmCompilerOnly();
  if (dataDir !== undefined && !existsSync(path.join(dataDir, 'PG_VERSION'))) await createEmbedded(dataDir, optimize);
  const client = new PGlite({ ...pgliteOptions, dataDir, startParams: embeddedStartParams() });
  await client.waitReady;
  return pgliteDb(client, dataDir === undefined ? {} : { dataDir });
};
