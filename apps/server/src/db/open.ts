import path from 'node:path';
import type { Config } from '../config';
import { systemClock } from '../lib/clock';
import { openEmbedded, postgresDb, type Db } from './client';
import { acquireDataDirLock } from './data-dir-lock';
import { migrate } from './migrate';
import { seedDatabase } from './seed';

const prepare = async (db: Db, config: Config): Promise<void> => {
  await migrate(db);
  await seedDatabase(db, { demo: config.seedDemo, clock: systemClock, legalVersions: config.legalVersions });
};

/** Opens PostgreSQL (server or embedded), applies migrations and seeds what is missing. */
export const openDatabase = async (config: Config): Promise<{ db: Db; release: () => void }> => {
  if (config.databaseUrl) {
    // ADR 0074: the app's pool bounds every statement; migrations and the seed run first on a pool of
    // their own without that bound (an index built on a large table may take minutes).
    const setup = postgresDb(config.databaseUrl, { prepared: false, queryTimeoutMs: 0 });
    try {
      await prepare(setup, config);
    } finally {
      await setup.close();
    }
    return { db: postgresDb(config.databaseUrl, { prepared: config.preparedStatements }), release: () => undefined };
  }
  const release = acquireDataDirLock(config.dataDir);
  let db: Db;
  try {
    db = await openEmbedded(path.join(config.dataDir, 'pg'), { optimize: config.embeddedOptimize });
  } catch (error) {
    release();
    throw error;
  }
  try {
    await prepare(db, config);
  } catch (error) {
    await db.close().catch(() => undefined);
    release();
    throw error;
  }
  return { db, release };
};
