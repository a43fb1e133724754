import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import type { Db } from '../db/client';
import { openDatabase } from '../db/open';
import { serveSnapshots } from '../db/snapshot';
import { backupPlaceOf } from '../ops';
import { everything, fillWithData, sha, type Filled, runBackupOps } from '../testing/backup-fixture';
import { TEMPLATE_PATH } from '../testing/global-setup';

/**
 * ADR 0082, the test: orders, files, messages and payments → a backup while the server serves →
 * the data directory wiped → restore → every row of every table and every file byte is back, and the
 * server starts on it and answers an order. Then the bad input: a non-empty target, a truncated, a
 * corrupted and an altered archive are refused with nothing written.
 */

let root: string;
let archive: string;

const configFor = (dataDir: string): Config =>
  loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '3000',
    DATA_DIR: dataDir,
    JWT_SECRET: 'backup-secret-backup-secret-0123456789abcdef',
  });

interface Running {
  app: FastifyInstance;
  db: Db;
  stop: () => Promise<void>;
}
/** What main.ts does: the database (locked, migrated), the app, the snapshot socket. */
const start = async (config: Config): Promise<Running> => {
  const { db, release } = await openDatabase(config);
  const app = await buildApp({ config, db, serveWeb: false });
  await app.ready();
  const snapshots = await serveSnapshots(db, config.dataDir);
  return {
    app,
    db,
    stop: async () => {
      await snapshots.close();
      await app.close();
      await db.close();
      release();
    },
  };
};

const ops = async (argv: string[], config: Config) => runBackupOps(argv, backupPlaceOf(config));

const config = () => configFor(path.join(root, 'data'));
let token: string;
const auth = () => ({ authorization: `Bearer ${token}` });
let orders: Filled['orders'];
let uploaded: Filled['uploaded'];
let before: Record<string, string[]>;
/** What the seed holds before the test adds its own (the demo's paid orders have their payments, ADR 0084). */
let seeded: Record<string, string[]>;
let server: Running;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'backup-test-'));
  archive = path.join(root, 'backup.tar.gz');
  // The test template (migrated, seeded) as the embedded database on disk, as a first start would leave it.
  await mkdir(path.join(root, 'data', 'pg'), { recursive: true });
  const seed = new PGlite(path.join(root, 'data', 'pg'), { loadDataDir: new Blob([readFileSync(TEMPLATE_PATH)]) });
  await seed.waitReady;
  await seed.close();
  server = await start(config());

  seeded = await everything(server.db);
  ({ token, orders, uploaded } = await fillWithData(server.app, server.db, config().jwtSecret ?? ''));
  before = await everything(server.db);
}, 180_000);

afterAll(async () => {
  await (server as Running | undefined)?.stop().catch(() => undefined);
  await rm(root, { recursive: true, force: true });
});

// Each test copies, archives or reads a database of about 40 MB: minutes on a machine shared by many runs.
describe('npm run ops -- backup / restore (embedded database, files on disk)', { timeout: 180_000 }, () => {
  it('has something to lose: orders, files, messages, payments and transactions', () => {
    expect(before.orders?.length).toBeGreaterThanOrEqual(3);
    expect(before.order_files?.length).toBe(6);
    expect(before.messages?.filter((row) => row.includes('Hello about order')).length).toBe(3);
    expect(before.message_files?.length).toBe(3);
    expect((before.payments?.length ?? 0) - (seeded.payments?.length ?? 0)).toBe(2);
    expect((before.transactions?.length ?? 0) - (seeded.transactions?.length ?? 0)).toBe(2);
  });

  it('backs up while the server serves: it answers during the backup, and the copy is its own', async () => {
    const reads = Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        server.app.inject({ method: 'GET', url: `/api/en/orders/${orders[i % orders.length]?.id}`, headers: auth() }),
      ),
    );
    const backup = await ops(['backup', archive], config());
    expect(backup.err).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.out).toMatch(/^Backed up the embedded database \(copied by the running server, queries paused \d+ ms\) and 9 files/);
    expect((await reads).map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    // Nothing of the backup's own work is left beside the archive or in the data directory.
    expect((await readdir(root)).sort()).toEqual(['backup.tar.gz', 'data']);
    expect((await readdir(path.join(root, 'data'))).filter((n) => n.startsWith('.'))).toEqual([]);
    const verify = await ops(['backup:verify', archive], config());
    expect(verify.out).toMatch(/is intact: a backup of .* the embedded database and 9 files/);
  });

  it('refuses to overwrite an archive', async () => {
    const again = await ops(['backup', archive], config());
    expect(again.code).toBe(1);
    expect(again.err).toContain('already exists; a backup never overwrites a file');
  });

  it('restores into the wiped data directory: every row and every file byte is back, and the server starts on it', async () => {
    await server.stop();
    await rm(path.join(root, 'data'), { recursive: true, force: true });

    const restore = await ops(['restore', archive], config());
    expect(restore.err).toBe('');
    expect(restore.out).toMatch(/^Restored the backup of .*: the embedded database and 9 files\.$/);

    server = await start(config());
    expect(await everything(server.db)).toEqual(before);
    for (const order of orders) {
      const res = await server.app.inject({ method: 'GET', url: `/api/en/orders/${order.id}`, headers: auth() });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: order.id });
    }
    for (const [id, digest] of uploaded) {
      const res = await server.app.inject({ method: 'GET', url: `/api/en/orders/files/${id}`, headers: auth() });
      expect(res.statusCode).toBe(200);
      expect(sha(res.rawPayload)).toBe(digest);
    }
    const chat = await server.app.inject({ method: 'GET', url: `/chat/api/customers/orders/${orders[0]?.id}/messages`, headers: auth() });
    expect(chat.json().messages).toHaveLength(1);
  }, 60_000);

  it('refuses a restore into a target that is not empty, and writes nothing', async () => {
    const files = await readdir(path.join(root, 'data'), { recursive: true });
    const refused = await ops(['restore', archive], config());
    expect(refused.code).toBe(1);
    // The running server answers on its socket in the data directory.
    expect(refused.err).toContain('A server is running on');
    await server.stop();
    const stopped = await ops(['restore', archive], config());
    expect(stopped.code).toBe(1);
    expect(stopped.err).toContain('A restore only writes into an empty target');
    expect(stopped.err).toContain('already holds a database');
    expect(stopped.err).toContain('already holds files');
    expect(stopped.err).toContain('nothing was restored');
    expect((await readdir(path.join(root, 'data'), { recursive: true })).sort()).toEqual(
      files.filter((f) => !['server.lock', 'ops.sock', path.join('pg', 'postmaster.pid')].includes(f)).sort(),
    );
  });

  it('backs up with no server running (under the data directory lock)', async () => {
    const idle = path.join(root, 'idle.tar.gz');
    const done = await ops(['backup', idle], config());
    expect(done.out).toMatch(/\(no server was running\) and 9 files/);
    expect((await ops(['backup:verify', idle], config())).code).toBe(0);
    await rm(idle);
  });

  const expectRefusedUntouched = async (damaged: string, message: RegExp) => {
    const target = configFor(path.join(root, `empty-${randomBytes(4).toString('hex')}`));
    const refused = await ops(['restore', damaged], target);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(message);
    expect(refused.err).toContain('nothing was restored');
    // Nothing written: the data directory (which the restore's lock creates) is empty again.
    expect(await readdir(target.dataDir)).toEqual([]);
    expect(existsSync(target.filesDir)).toBe(false);
  };

  it('detects a truncated archive before writing anything', async () => {
    const bytes = await readFile(archive);
    for (const keep of [0.5, 0.99]) {
      const cut = path.join(root, `cut-${keep}.tar.gz`);
      await writeFile(cut, bytes);
      await truncate(cut, Math.floor(bytes.length * keep));
      await expectRefusedUntouched(cut, /The archive is damaged or incomplete/);
    }
  });

  it('detects a corrupted byte before writing anything', async () => {
    const bytes = Buffer.from(await readFile(archive));
    const at = Math.floor(bytes.length / 3);
    bytes[at] = (bytes[at] ?? 0) ^ 0xff;
    const flipped = path.join(root, 'flipped.tar.gz');
    await writeFile(flipped, bytes);
    await expectRefusedUntouched(flipped, /The archive is damaged or incomplete/);
  });

  it('detects a file altered inside a well-formed archive (the manifest check, not only gzip)', async () => {
    const unpacked = path.join(root, 'unpacked');
    await rm(unpacked, { recursive: true, force: true });
    await mkdir(unpacked);
    await tar.extract({ file: archive, cwd: unpacked });
    const names = (await readdir(path.join(unpacked, 'files'), { recursive: true })).filter((n) => /[0-9a-f]{32}$/.test(n));
    const victim = path.join(unpacked, 'files', names[0] ?? '');
    const content = await readFile(victim);
    content[0] = (content[0] ?? 0) ^ 1;
    await writeFile(victim, content);
    const altered = path.join(root, 'altered.tar.gz');
    const entries = (await readdir(unpacked)).filter((n) => n !== 'manifest.json');
    await tar.create({ file: altered, cwd: unpacked, gzip: true }, [...entries, 'manifest.json']);
    await expectRefusedUntouched(altered, /differs from the manifest/);
  });

  it('refuses a file that is not a backup, and asks for one argument', async () => {
    const other = path.join(root, 'other.tar.gz');
    await tar.create({ file: other, cwd: root, gzip: true }, ['backup.tar.gz']);
    await expectRefusedUntouched(other, /no manifest\.json/);
    expect((await ops(['restore'], config())).err).toContain('restore takes one argument');
  });
});
