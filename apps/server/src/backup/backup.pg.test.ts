import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import type { Db } from '../db/client';
import { openDatabase } from '../db/open';
import { createDiskFileStorage } from '../lib/file-storage';
import { backupPlaceOf } from '../ops';
import { everything, fillWithData, sha, type Filled, runBackupOps } from '../testing/backup-fixture';

/**
 * ADR 0082 on a PostgreSQL server (both test passes; the server of TEST_DATABASE_URL or the local one):
 * orders, files, messages, payments → backup (pg_dump) while the app serves → a new, empty database and
 * files folder → restore → every row and file byte is back and the app answers an order; a database
 * with tables is refused.
 */
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const names = [`backup_src_${randomBytes(4).toString('hex')}`, `backup_dst_${randomBytes(4).toString('hex')}`] as const;
const urlOf = (name: string): string => {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
};
const admin = async (sql: string): Promise<void> => {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
};

let root: string;
const configFor = (name: string, files: string): Config =>
  loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '3000',
    DATABASE_URL: urlOf(name),
    DATA_DIR: path.join(root, 'data'),
    FILES_DIR: path.join(root, files),
    JWT_SECRET: 'backup-secret-backup-secret-0123456789abcdef',
  });

const start = async (config: Config): Promise<{ app: FastifyInstance; db: Db; stop: () => Promise<void> }> => {
  const { db } = await openDatabase(config);
  const app = await buildApp({ config, db, serveWeb: false });
  await app.ready();
  return { app, db, stop: () => app.close().then(() => db.close()) };
};

const ops = async (argv: string[], config: Config) => runBackupOps(argv, backupPlaceOf(config));

let filled: Filled;
let before: Record<string, string[]>;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'backup-pg-'));
  for (const name of names) await admin(`CREATE DATABASE ${name}`);
}, 60_000);
afterAll(async () => {
  for (const name of names) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  await rm(root, { recursive: true, force: true });
});

describe('npm run ops -- backup / restore on a PostgreSQL server', () => {
  it('backs up while the app serves and restores into an empty database: every row and file byte is back', async () => {
    const source = configFor(names[0], 'files-src');
    const target = configFor(names[1], 'files-dst');
    const archive = path.join(root, 'pg-backup.tar.gz');

    const running = await start(source);
    // The demo seed stores its delivered files where uploads go (ADR 0084); the fill adds 9.
    let seededFiles = 0;
    for await (const stored of createDiskFileStorage(source.filesDir).entries()) if (!stored.partial) seededFiles += 1;
    const files = seededFiles + 9;
    filled = await fillWithData(running.app, running.db, source.jwtSecret ?? '');
    before = await everything(running.db);
    const auth = { authorization: `Bearer ${filled.token}` };
    const reads = Promise.all(
      filled.orders.map((order) => running.app.inject({ method: 'GET', url: `/api/en/orders/${order.id}`, headers: auth })),
    );
    const backup = await ops(['backup', archive], source);
    expect(backup.err).toBe('');
    expect(backup.out).toMatch(new RegExp(`^Backed up the PostgreSQL database and ${files} files`));
    expect((await reads).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    await running.stop();

    const restore = await ops(['restore', archive], target);
    expect(restore.err).toBe('');
    expect(restore.out).toMatch(new RegExp(`^Restored the backup of .*: the PostgreSQL database and ${files} files\\.$`));

    const restored = await start(target);
    try {
      expect(await everything(restored.db)).toEqual(before);
      for (const order of filled.orders) {
        const res = await restored.app.inject({ method: 'GET', url: `/api/en/orders/${order.id}`, headers: auth });
        expect(res.statusCode).toBe(200);
      }
      for (const [id, digest] of filled.uploaded) {
        const res = await restored.app.inject({ method: 'GET', url: `/api/en/orders/files/${id}`, headers: auth });
        expect(sha(res.rawPayload)).toBe(digest);
      }
    } finally {
      await restored.stop();
    }

    // The restored database has tables now: a second restore into it is refused, and changes nothing.
    const again = await ops(['restore', archive], configFor(names[1], 'files-empty'));
    expect(again.code).toBe(1);
    expect(again.err).toContain('the PostgreSQL database of DATABASE_URL already has tables');
    expect(again.err).toContain('nothing was restored');
    // An embedded archive is not restored into a server, nor the other way round.
    const embedded = await ops(['restore', archive], {
      ...target,
      databaseUrl: undefined,
      dataDir: path.join(root, 'empty-data'),
      filesDir: path.join(root, 'empty-files'),
    });
    expect(embedded.err).toContain('This archive holds a PostgreSQL server dump');
  }, 180_000);
});
