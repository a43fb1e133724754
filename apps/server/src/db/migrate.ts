import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from './client';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
// Any constant: serialises migrations when several instances start at once on one PostgreSQL server.
const MIGRATION_LOCK_KEY = 72_201_301;

/** Applies the SQL files of db/migrations in name order, each once, each in its own transaction. */
export const migrate = async (db: Db): Promise<string[]> => {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  if (db.kind === 'postgres') await db.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
  try {
    await db.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = await readFile(path.join(MIGRATIONS_DIR, file), 'utf8');
      await db.transaction(async (tx) => {
        await tx.query(sql);
        await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      });
      applied.push(file);
    }
  } finally {
    if (db.kind === 'postgres') await db.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  }
  return applied;
};
