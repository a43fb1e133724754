import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config';
import type { FileStorage } from '../lib/file-storage';
import { openFileStorage } from '../modules/files';
import { backupPlaceOf } from '../ops';
import { runBackupOps } from '../testing/backup-fixture';
import { TEMPLATE_PATH } from '../testing/global-setup';
import { startS3Server, type TestS3Server } from '../testing/s3-server';

/**
 * ADR 0082 with FILES_STORAGE=s3 (ADR 0080): the archive holds the database and a list of the bucket's
 * objects, not their bytes (the bucket's own versioning keeps those); a restore says how many listed
 * objects the bucket no longer holds. Against a real S3-compatible server (s3rver).
 */

let root: string;
let s3: TestS3Server;
let storage: FileStorage;
const keys: string[] = [];

const configFor = (dataDir: string): Config =>
  loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '3000',
    DATA_DIR: dataDir,
    JWT_SECRET: 'backup-secret-backup-secret-0123456789abcdef',
    ...s3.env,
  });

const ops = async (argv: string[], config: Config) => runBackupOps(argv, backupPlaceOf(config, await openFileStorage(config)));

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'backup-s3-test-'));
  s3 = await startS3Server();
  // The test template (migrated, seeded) as an embedded database on disk, with no server running on it.
  await mkdir(path.join(root, 'data', 'pg'), { recursive: true });
  const seed = new PGlite(path.join(root, 'data', 'pg'), { loadDataDir: new Blob([readFileSync(TEMPLATE_PATH)]) });
  await seed.waitReady;
  await seed.close();
  storage = await openFileStorage(configFor(path.join(root, 'data')));
  for (const text of ['first object', 'second object', 'third object']) {
    keys.push((await storage.put(Readable.from([Buffer.from(text, 'utf8')]))).key);
  }
}, 180_000);

afterAll(async () => {
  await s3?.close();
  await rm(root, { recursive: true, force: true });
});

describe('npm run ops -- backup / restore with FILES_STORAGE=s3', { timeout: 180_000 }, () => {
  const archive = () => path.join(root, 'backup.tar.gz');

  it('lists the bucket’s objects in the archive instead of copying a folder', async () => {
    const backup = await ops(['backup', archive()], configFor(path.join(root, 'data')));
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.out).toContain('and 3 files');
    const verify = await ops(['backup:verify', archive()], configFor(path.join(root, 'data')));
    expect(verify.code).toBe(0);
    expect(verify.out).toContain('the embedded database and 3 s3 objects listed');
  });

  it('restores the database into an empty data directory and counts the listed objects the bucket lost', async () => {
    const whole = await ops(['restore', archive()], configFor(path.join(root, 'restored')));
    expect(whole.err).toBe('');
    expect(whole.out).toMatch(/: the embedded database and 3 files\.$/);
    expect((await readdir(path.join(root, 'restored', 'pg'))).length).toBeGreaterThan(0);

    await storage.delete(keys[0] as string);
    const lost = await ops(['restore', archive()], configFor(path.join(root, 'restored-again')));
    expect(lost.code).toBe(0);
    expect(lost.out).toContain('1 of the objects it lists are not in the storage.');
  });
});
