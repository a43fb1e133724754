import { randomBytes } from 'node:crypto';
import { constants, existsSync } from 'node:fs';
import { chmod, cp, mkdir, readdir, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import type { Db } from './client';
import { acquireDataDirLock } from './data-dir-lock';

/**
 * ADR 0082: a consistent copy of the embedded database, taken while the server runs. PGlite lives in the
 * server's process and takes no lock of its own on its files (STACK "Gotchas"), so no other process may
 * read them while it serves: the running server makes the copy itself, asked over a Unix socket in the
 * data directory (only whoever can read the data directory can reach it: the socket is 0600). With no
 * server running, the copy is made under the data directory's lock, so none starts meanwhile.
 */

/** The embedded database's own folder under DATA_DIR (db/open.ts). */
export const EMBEDDED_DIR = 'pg';
/** The running server's snapshot socket under DATA_DIR. */
export const SNAPSHOT_SOCKET = 'ops.sock';
const SNAPSHOT_PREFIX = '.snapshot-';
/** A copy that fails rather than overwrite, and shares blocks where the file system can (reflink). */
const COPY_OPTIONS = { recursive: true, errorOnExist: true, force: false, mode: constants.COPYFILE_FICLONE } as const;
/** Snapshots an ops process never came back for (it was killed) are removed after this long. */
const STALE_SNAPSHOT_MS = 60 * 60 * 1000;

export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotError';
  }
}

const removeStaleSnapshots = async (dataDir: string, now: number): Promise<void> => {
  for (const name of await readdir(dataDir)) {
    if (!name.startsWith(SNAPSHOT_PREFIX)) continue;
    const dir = path.join(dataDir, name);
    const { mtimeMs } = await stat(dir).catch(() => ({ mtimeMs: now }));
    if (now - mtimeMs > STALE_SNAPSHOT_MS) await rm(dir, { recursive: true, force: true });
  }
};

/**
 * Serves `POST /snapshot` on DATA_DIR/ops.sock for as long as the server runs: each request gets a fresh
 * directory under DATA_DIR holding the database's copy in `pg/`, which the asker archives and removes.
 */
export const serveSnapshots = async (db: Db, dataDir: string): Promise<{ close: () => Promise<void> }> => {
  const snapshot = db.snapshotDataDir?.bind(db);
  if (!snapshot) throw new Error('serveSnapshots needs the embedded database on disk');
  const socketPath = path.join(dataDir, SNAPSHOT_SOCKET);
  let running: Promise<unknown> = Promise.resolve();
  const server = http.createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (req.method !== 'POST' || req.url !== '/snapshot') return answer(404, { message: 'Not found' });
    req.resume();
    // One snapshot at a time: two at once would only double the pause.
    const job = running.then(async () => {
      await removeStaleSnapshots(dataDir, Date.now());
      const dir = path.join(dataDir, `${SNAPSHOT_PREFIX}${randomBytes(8).toString('hex')}`);
      await mkdir(dir, { mode: 0o700 });
      const started = performance.now();
      try {
        await snapshot(path.join(dir, EMBEDDED_DIR));
      } catch (error) {
        await rm(dir, { recursive: true, force: true });
        throw error;
      }
      return { dir, pausedMs: Math.round(performance.now() - started) };
    });
    running = job.catch(() => undefined);
    job.then(
      (body) => answer(200, body),
      (error: unknown) => answer(500, { message: error instanceof Error ? error.message : String(error) }),
    );
  });
  // The data directory's lock is ours: a socket left by a server that died is stale.
  await rm(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  await chmod(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        void rm(socketPath, { force: true });
      }),
  };
};

/** Whether a server runs on `dataDir` and answers on its snapshot socket (a restore refuses then). */
export const serverAnswers = (dataDir: string): Promise<boolean> => {
  const socketPath = path.join(dataDir, SNAPSHOT_SOCKET);
  if (!existsSync(socketPath)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const req = http.request({ socketPath, method: 'GET', path: '/' }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('error', () => resolve(false));
    req.end();
  });
};

/** Asks the server running on `dataDir` for a snapshot; undefined when no server answers on its socket. */
const requestSnapshot = (dataDir: string): Promise<{ dir: string; pausedMs: number } | undefined> => {
  const socketPath = path.join(dataDir, SNAPSHOT_SOCKET);
  if (!existsSync(socketPath)) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method: 'POST', path: '/snapshot' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { dir?: string; pausedMs?: number; message?: string };
        if (res.statusCode === 200 && typeof body.dir === 'string') resolve({ dir: body.dir, pausedMs: body.pausedMs ?? 0 });
        else reject(new SnapshotError(`The running server could not copy its database: ${body.message ?? `status ${res.statusCode}`}`));
      });
      res.on('error', reject);
    });
    // A socket file nobody listens on: the server that made it is gone (killed without its shutdown).
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? resolve(undefined) : reject(error),
    );
    req.end();
  });
};

export interface EmbeddedSnapshot {
  /** The copy of DATA_DIR/pg. */
  pgDir: string;
  /** 'server': the running server made it (and paused its queries for pausedMs); 'idle': no server ran. */
  via: 'server' | 'idle';
  pausedMs: number;
  /** Removes the copy. */
  remove: () => Promise<void>;
}

/**
 * A consistent copy of the embedded database on `dataDir`: from the running server when one answers on
 * its socket, else a plain copy under the data directory's lock (which refuses while a server holds it).
 */
export const snapshotEmbedded = async (dataDir: string): Promise<EmbeddedSnapshot> => {
  const source = path.join(dataDir, EMBEDDED_DIR);
  const fromServer = await requestSnapshot(dataDir);
  if (fromServer) {
    return {
      pgDir: path.join(fromServer.dir, EMBEDDED_DIR),
      via: 'server',
      pausedMs: fromServer.pausedMs,
      remove: () => rm(fromServer.dir, { recursive: true, force: true }),
    };
  }
  if (!existsSync(path.join(source, 'PG_VERSION'))) throw new SnapshotError(`There is no embedded database in ${source} to back up.`);
  const release = acquireDataDirLock(dataDir);
  const dir = path.join(dataDir, `${SNAPSHOT_PREFIX}${randomBytes(8).toString('hex')}`);
  const started = performance.now();
  try {
    await mkdir(dir, { mode: 0o700 });
    await cp(source, path.join(dir, EMBEDDED_DIR), COPY_OPTIONS);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  } finally {
    release();
  }
  return {
    pgDir: path.join(dir, EMBEDDED_DIR),
    via: 'idle',
    pausedMs: Math.round(performance.now() - started),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
};
