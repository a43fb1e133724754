import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteDb, pgliteOptions } from '../db/client';
import { migrate } from '../db/migrate';
import { seedDatabase } from '../db/seed';
import { systemClock } from '../lib/clock';

export const TEMPLATE_PATH = path.resolve(import.meta.dirname, '../../../../.tmp/test-template.tar.gz');

/**
 * STACK "Gotchas": migrating a fresh PGlite in every file is slow. Build one migrated, seeded database
 * once per run and let every test file load its dump (about 0.35 s).
 */
export default async function setup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) return;
  const client = new PGlite(pgliteOptions);
  const db = pgliteDb(client);
  await migrate(db);
  await seedDatabase(db, { demo: true, clock: systemClock });
  const dump = await client.dumpDataDir('gzip');
  mkdirSync(path.dirname(TEMPLATE_PATH), { recursive: true });
  writeFileSync(TEMPLATE_PATH, Buffer.from(await dump.arrayBuffer()));
  await client.close();
}
