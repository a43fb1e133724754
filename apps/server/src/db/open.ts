import path from 'node:path';
import { Readable } from 'node:stream';
import type { Config } from '../config';
import { systemClock } from '../lib/clock';
import { createDiskFileStorage, type FileStorage } from '../lib/file-storage';
import type { S3StorageConfig } from '../lib/s3-file-storage';
import { openEmbedded, postgresDb, type Db } from './client';
import { acquireDataDirLock } from './data-dir-lock';
import { migrate } from './migrate';
import { seedDatabase } from './seed';
import { EMBEDDED_DIR } from './snapshot';

const prepare = async (db: Db, config: Config): Promise<void> => {
  await migrate(db);
  // ADR 0084: the demo's deliveries carry real files, stored where uploads go (the bucket with FILES_STORAGE=s3,
  // ADR 0080), opened only when the demo is seeded.
  let storage: Promise<FileStorage> | undefined;
  const uploads = (): Promise<FileStorage> =>
    (storage ??= config.s3
      ? import('../lib/s3-file-storage').then(({ createS3FileStorage }) => createS3FileStorage(config.s3 as S3StorageConfig))
      : Promise.resolve(createDiskFileStorage(config.filesDir)));
  await seedDatabase(db, {
    demo: config.seedDemo,
    clock: systemClock,
    legalVersions: config.legalVersions,
    storeDemoFile: async (text) => (await uploads()).put(Readable.from([Buffer.from(text, 'utf8')])),
  });
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
    db = await openEmbedded(path.join(config.dataDir, EMBEDDED_DIR), { optimize: config.embeddedOptimize });
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
