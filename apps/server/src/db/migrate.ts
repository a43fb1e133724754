import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db, Queryable } from './client';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
// Any constant: serialises migrations when several instances start at once on one PostgreSQL server.
const MIGRATION_LOCK_KEY = 72_201_301;

/** The names in schema_migrations, or null when the table does not exist yet. */
const appliedMigrations = async (db: Db): Promise<Set<string> | null> => {
  const [exists] = await db.query<{ present: boolean }>(`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`);
  if (!exists?.present) return null;
  return new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => String(r.name)));
};

/**
 * Applies the SQL files of db/migrations in name order, each once, each in its own transaction.
 * Race-safe when several instances start at once on one empty database: every step is a transaction
 * that first takes a transaction-level advisory lock, then looks at schema_migrations. The lock ends
 * with its transaction on whichever pooled connection ran it, so none is left behind (a session lock
 * taken through a pool can be released on another connection, which leaves it held).
 */
export const migrate = async (db: Db): Promise<string[]> => {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
  // A restart: one read finds every file applied, and nothing else runs (no lock, no transaction, no file
  // read). Anything missing, or no table yet, takes the locked path below, which checks again (ADR 0058).
  const known = await appliedMigrations(db);
  if (known && files.every((f) => known.has(f))) return [];
  const applied: string[] = [];
  const lock = (tx: Queryable) => tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
  await db.transaction(async (tx) => {
    await lock(tx);
    await tx.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  });
  for (const file of files) {
    const sql = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
    const done = await db.transaction(async (tx) => {
      await lock(tx);
      if ((await tx.query('SELECT 1 FROM schema_migrations WHERE name = $1', [file])).length > 0) return true;
      await tx.query(sql);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      return false;
    });
    if (!done) applied.push(file);
  }
  return applied;
};
