import path from 'node:path';
import type { Config } from '../config';
import { systemClock } from '../lib/clock';
import { openEmbedded, postgresDb, type Db } from './client';
import { acquireDataDirLock } from './data-dir-lock';
import { migrate } from './migrate';
import { seedDatabase } from './seed';

/** Opens PostgreSQL (server or embedded), applies migrations and seeds what is missing. */
export const openDatabase = async (config: Config): Promise<{ db: Db; release: () => void }> => {
  let release = () => undefined as void;
  let db: Db;
  if (config.databaseUrl) {
    db = postgresDb(config.databaseUrl, { prepared: config.preparedStatements });
  } else {
    release = acquireDataDirLock(config.dataDir);
    try {
      db = await openEmbedded(path.join(config.dataDir, 'pg'), { optimize: config.embeddedOptimize });
    } catch (error) {
      release();
      throw error;
    }
  }
  try {
    await migrate(db);
    await seedDatabase(db, { demo: config.seedDemo, clock: systemClock });
  } catch (error) {
    await db.close().catch(() => undefined);
    release();
    throw error;
  }
  return { db, release };
};
