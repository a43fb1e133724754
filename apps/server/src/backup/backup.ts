import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, rmdir, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as tar from 'tar';
import { acquireDataDirLock } from '../db/data-dir-lock';
import { countUserRelations, pgDump, pgRestore } from '../db/pg-dump';
import { EMBEDDED_DIR, serverAnswers, snapshotEmbedded, type EmbeddedSnapshot } from '../db/snapshot';
import { createDiskFileStorage, type FileStorage } from '../lib/file-storage';

/**
 * ADR 0082: one archive (tar, gzip) holds the database and the files:
 *
 *   db/pglite/…          the embedded database's data directory, copied consistently (db/snapshot.ts), or
 *   db/postgres.dump     a PostgreSQL server's pg_dump in its custom format (db/pg-dump.ts)
 *   files/<2>/<key>      every stored file (disk storage), or
 *   objects.json         the list of the stored objects (object storage keeps its own copies)
 *   manifest.json        last: the format, what the database is, and every entry's size and SHA-256
 *
 * A restore reads the whole archive once and checks it against the manifest before it writes anything, so a
 * truncated or altered archive is refused with the target untouched; it writes only into an empty target.
 */

export const BACKUP_FORMAT = 'writing-service-backup';
const FORMAT_VERSION = 1;
const MANIFEST = 'manifest.json';
const OBJECTS = 'objects.json';
const PGLITE_PREFIX = 'db/pglite';
const POSTGRES_DUMP = 'db/postgres.dump';
const FILES_PREFIX = 'files';

export type BackupDatabase = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; url: string };
/**
 * Where the files are. `disk`: their bytes go into the archive. `listed`: any other FileStorage (S3): only
 * the list of its stored objects goes in, from the storage's `entries()`, the same listing its orphan sweep
 * uses; the bucket's own versioning or replication keeps the bytes.
 */
export type BackupFiles = { kind: 'disk'; root: string } | { kind: 'listed'; name: string; storage: Pick<FileStorage, 'entries'> };
export interface BackupPlace {
  database: BackupDatabase;
  files: BackupFiles;
}

type ManifestEntry = { type: 'dir' } | { type: 'file'; size: number; sha256: string };
export interface Manifest {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  database: BackupDatabase['kind'];
  files: { storage: 'disk'; count: number; bytes: number } | { storage: string; objects: number };
  entries: Record<string, ManifestEntry>;
}

/** A refusal the operator can act on: the message says what is wrong and that nothing was written. */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

const hashFile = async (file: string): Promise<{ size: number; sha256: string }> => {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
};

const isEnoent = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';
const posix = (p: string): string => p.split(path.sep).join('/');

export interface BackupSummary {
  file: string;
  database: BackupDatabase['kind'];
  /** embedded only: whether the running server made the copy, and for how long its queries waited */
  snapshot?: { via: EmbeddedSnapshot['via']; pausedMs: number };
  files: number;
  bytes: number;
  archiveBytes: number;
}

/**
 * Writes one archive at `file` (refused when it exists). The database first, then the files: a file
 * stored after the database's copy is in the archive without a row (the orphan sweep removes it after a
 * restore); a file deleted between the two (an account deleted in those seconds) is missing from it.
 */
export const createBackup = async (file: string, place: BackupPlace, now = new Date()): Promise<BackupSummary> => {
  const out = path.resolve(file);
  if (existsSync(out)) throw new BackupError(`${out} already exists; a backup never overwrites a file. Choose a new name.`);
  const staging = await mkdtemp(path.join(path.dirname(out), '.backup-'));
  const partial = `${out}.partial`;
  let snapshot: EmbeddedSnapshot | undefined;
  try {
    const entries: Record<string, ManifestEntry> = {};
    const addFile = async (name: string): Promise<boolean> => {
      try {
        entries[name] = { type: 'file', ...(await hashFile(path.join(staging, name))) };
        return true;
      } catch (error) {
        if (isEnoent(error)) return false;
        throw error;
      }
    };
    await mkdir(path.join(staging, 'db'));
    if (place.database.kind === 'pglite') {
      snapshot = await snapshotEmbedded(place.database.dataDir);
      await symlink(snapshot.pgDir, path.join(staging, PGLITE_PREFIX), 'dir');
      const found = await readdir(snapshot.pgDir, { recursive: true, withFileTypes: true });
      for (const entry of found.sort((a, b) => (a.parentPath + a.name).localeCompare(b.parentPath + b.name))) {
        const name = posix(path.join(PGLITE_PREFIX, path.relative(snapshot.pgDir, path.join(entry.parentPath, entry.name))));
        if (entry.isDirectory()) entries[name] = { type: 'dir' };
        else if (entry.isFile()) await addFile(name);
      }
    } else {
      await pgDump(place.database.url, path.join(staging, POSTGRES_DUMP));
      await addFile(POSTGRES_DUMP);
    }

    let filesPart: Manifest['files'];
    if (place.files.kind === 'disk') {
      await symlink(place.files.root, path.join(staging, FILES_PREFIX), 'dir');
      let count = 0;
      let bytes = 0;
      for await (const stored of createDiskFileStorage(place.files.root).entries()) {
        if (stored.partial) continue;
        const name = `${FILES_PREFIX}/${stored.key.slice(0, 2)}/${stored.key}`;
        // Deleted since it was listed: not in the archive (see above).
        if (!(await addFile(name))) continue;
        count += 1;
        bytes += (entries[name] as { size: number }).size;
      }
      filesPart = { storage: 'disk', count, bytes };
    } else {
      const objects: { key: string; modifiedAt: string }[] = [];
      for await (const stored of place.files.storage.entries()) {
        if (!stored.partial) objects.push({ key: stored.key, modifiedAt: stored.modifiedAt.toISOString() });
      }
      await writeFile(path.join(staging, OBJECTS), JSON.stringify({ storage: place.files.name, objects }));
      await addFile(OBJECTS);
      filesPart = { storage: place.files.name, objects: objects.length };
    }

    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      version: FORMAT_VERSION,
      createdAt: now.toISOString(),
      database: place.database.kind,
      files: filesPart,
      entries,
    };
    await writeFile(path.join(staging, MANIFEST), JSON.stringify(manifest));
    await tar.create(
      // follow: the links in the staging folder stand for the snapshot and the files folder; noDirRecurse:
      // exactly the listed entries, so what the archive holds is what the manifest describes.
      { file: partial, cwd: staging, gzip: true, portable: true, follow: true, noDirRecurse: true, strict: true },
      [...Object.keys(entries), MANIFEST],
    );
    await rename(partial, out);
    const { size } = await stat(out);
    return {
      file: out,
      database: place.database.kind,
      ...(snapshot ? { snapshot: { via: snapshot.via, pausedMs: snapshot.pausedMs } } : {}),
      files: filesPart.storage === 'disk' && 'count' in filesPart ? filesPart.count : 'objects' in filesPart ? filesPart.objects : 0,
      bytes: 'bytes' in filesPart ? filesPart.bytes : 0,
      archiveBytes: size,
    };
  } finally {
    await rm(partial, { force: true });
    await rm(staging, { recursive: true, force: true });
    await snapshot?.remove();
  }
};

const CORRUPT = 'The archive is damaged or incomplete (truncated, or altered after it was written); nothing was restored.';

/**
 * Reads the whole archive and checks every entry against its manifest: the same entries, sizes and
 * SHA-256s, nothing more. Writes nothing. Throws BackupError with what is wrong.
 */
export const verifyBackup = async (file: string): Promise<Manifest> => {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  const seen = new Map<string, ManifestEntry>();
  const problems: string[] = [];
  let manifestText: string | undefined;
  const pending: Promise<void>[] = [];
  try {
    await tar.list({
      file,
      strict: true,
      onReadEntry: (entry) => {
        const name = entry.path.replace(/\/+$/, '');
        if (seen.has(name) || (name === MANIFEST && manifestText !== undefined)) problems.push(`${name} appears twice`);
        if (entry.type === 'Directory') {
          seen.set(name, { type: 'dir' });
          entry.resume();
          return;
        }
        if (entry.type !== 'File') {
          problems.push(`${name} is a ${entry.type}, not a file`);
          entry.resume();
          return;
        }
        const hash = createHash('sha256');
        const chunks: Buffer[] = [];
        let size = 0;
        entry.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (name === MANIFEST) chunks.push(chunk);
          else hash.update(chunk);
        });
        pending.push(
          new Promise((resolve) => {
            entry.on('end', () => {
              if (name === MANIFEST) manifestText = Buffer.concat(chunks).toString('utf8');
              else seen.set(name, { type: 'file', size, sha256: hash.digest('hex') });
              resolve();
            });
          }),
        );
      },
    });
    await Promise.all(pending);
  } catch (error) {
    throw new BackupError(`${CORRUPT} (${error instanceof Error ? error.message : String(error)})`);
  }
  if (manifestText === undefined) throw new BackupError(`${CORRUPT} (no ${MANIFEST} at its end)`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(manifestText) as Manifest;
  } catch {
    throw new BackupError(`${CORRUPT} (${MANIFEST} is not JSON)`);
  }
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError(`${file} is not a backup of this application; nothing was restored.`);
  if (manifest.version !== FORMAT_VERSION)
    throw new BackupError(
      `${file} is a backup of format ${manifest.version}; this version reads format ${FORMAT_VERSION}. Nothing was restored.`,
    );
  for (const [name, expected] of Object.entries(manifest.entries)) {
    const got = seen.get(name);
    if (!got) problems.push(`${name} is missing`);
    else if (JSON.stringify(got) !== JSON.stringify(expected)) problems.push(`${name} differs from the manifest`);
  }
  for (const name of seen.keys()) if (!Object.hasOwn(manifest.entries, name)) problems.push(`${name} is not in the manifest`);
  const dbEntries = Object.keys(manifest.entries).filter((name) => name.startsWith('db/'));
  if (manifest.database === 'pglite' ? !dbEntries.includes(`${PGLITE_PREFIX}/PG_VERSION`) : !dbEntries.includes(POSTGRES_DUMP))
    problems.push('the database is missing');
  if (problems.length > 0) {
    const shown = problems.slice(0, 5).join('; ');
    throw new BackupError(`${CORRUPT} (${shown}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''})`);
  }
  return manifest;
};

const isEmptyDir = async (dir: string): Promise<boolean> => {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if (isEnoent(error)) return true;
    throw error;
  }
};

const hasStoredFiles = async (storage: Pick<FileStorage, 'entries'>): Promise<boolean> => {
  for await (const entry of storage.entries()) {
    void entry;
    return true;
  }
  return false;
};

export interface RestoreSummary {
  database: BackupDatabase['kind'];
  createdAt: string;
  files: number;
  /** listed storage: objects the archive lists that the storage does not hold */
  missingObjects?: number;
}

/**
 * Restores `file` into `place`: refused unless the database target is empty (no embedded database in
 * DATA_DIR/pg, or no table in the PostgreSQL database) and the file store holds no file; then the archive
 * is checked whole (verifyBackup); only then is anything written. An embedded restore holds the data
 * directory's lock throughout, so no server starts on a half-restored directory.
 */
export const restoreBackup = async (file: string, place: BackupPlace): Promise<RestoreSummary> => {
  const archive = path.resolve(file);
  if (place.database.kind === 'pglite' && (await serverAnswers(place.database.dataDir)))
    throw new BackupError(`A server is running on ${place.database.dataDir}; stop it before a restore. Nothing was restored.`);
  const release = place.database.kind === 'pglite' ? acquireDataDirLock(place.database.dataDir) : () => undefined;
  try {
    const problems: string[] = [];
    if (place.database.kind === 'pglite') {
      const pgDir = path.join(place.database.dataDir, EMBEDDED_DIR);
      if (!(await isEmptyDir(pgDir))) problems.push(`${pgDir} already holds a database`);
    } else if ((await countUserRelations(place.database.url)) > 0) {
      problems.push('the PostgreSQL database of DATABASE_URL already has tables');
    }
    if (place.files.kind === 'disk' && (await hasStoredFiles(createDiskFileStorage(place.files.root))))
      problems.push(`${place.files.root} already holds files`);
    if (problems.length > 0)
      throw new BackupError(
        `A restore only writes into an empty target, and ${problems.join(' and ')}; nothing was restored. ` +
          'Restore into a new DATA_DIR (or an empty database and FILES_DIR), or move the current data away first.',
      );

    const manifest = await verifyBackup(archive);
    if (manifest.database !== place.database.kind)
      throw new BackupError(
        manifest.database === 'pglite'
          ? 'This archive holds the embedded database: restore it without DATABASE_URL (into DATA_DIR); nothing was restored.'
          : 'This archive holds a PostgreSQL server dump: restore it with DATABASE_URL set to an empty database; nothing was restored.',
      );
    if (place.files.kind === 'disk' && manifest.files.storage !== 'disk')
      throw new BackupError(
        `This archive lists the objects of ${manifest.files.storage} storage, not the files themselves: restore with that storage configured; nothing was restored.`,
      );

    if (place.database.kind === 'pglite') {
      const { dataDir } = place.database;
      const staging = path.join(dataDir, `.restore-${randomBytes(8).toString('hex')}`);
      await mkdir(staging, { recursive: true, mode: 0o700 });
      try {
        await tar.extract({
          file: archive,
          cwd: staging,
          strict: true,
          preserveOwner: false,
          filter: (p) => p.startsWith(`${PGLITE_PREFIX}/`),
        });
        const pgDir = path.join(dataDir, EMBEDDED_DIR);
        if (existsSync(pgDir)) await rmdir(pgDir);
        await rename(path.join(staging, PGLITE_PREFIX), pgDir);
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
    } else {
      const staging = await mkdtemp(path.join(path.dirname(archive), '.restore-'));
      try {
        await tar.extract({ file: archive, cwd: staging, strict: true, preserveOwner: false, filter: (p) => p === POSTGRES_DUMP });
        await pgRestore(place.database.url, path.join(staging, POSTGRES_DUMP));
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
    }

    let files = 0;
    let missingObjects: number | undefined;
    if (place.files.kind === 'disk') {
      const { root } = place.files;
      await mkdir(root, { recursive: true });
      // Inside the files folder (same file system: each file is renamed into place, whole); the disk
      // store's listing skips this folder's name.
      const staging = path.join(root, `.restore-${randomBytes(8).toString('hex')}`);
      await mkdir(staging);
      try {
        await tar.extract({
          file: archive,
          cwd: staging,
          strict: true,
          preserveOwner: false,
          filter: (p) => p.startsWith(`${FILES_PREFIX}/`),
        });
        for (const name of Object.keys(manifest.entries).filter((n) => n.startsWith(`${FILES_PREFIX}/`))) {
          const relative = name.slice(FILES_PREFIX.length + 1);
          await mkdir(path.join(root, path.dirname(relative)), { recursive: true });
          await rename(path.join(staging, name), path.join(root, relative));
          files += 1;
        }
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
    } else {
      const staging = await mkdtemp(path.join(path.dirname(archive), '.restore-'));
      try {
        await tar.extract({ file: archive, cwd: staging, strict: true, filter: (p) => p === OBJECTS });
        const listed = JSON.parse(await readFile(path.join(staging, OBJECTS), 'utf8')) as { objects: { key: string }[] };
        const present = new Set<string>();
        for await (const entry of place.files.storage.entries()) if (!entry.partial) present.add(entry.key);
        files = listed.objects.length;
        missingObjects = listed.objects.filter((o) => !present.has(o.key)).length;
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
    }
    return {
      database: manifest.database,
      createdAt: manifest.createdAt,
      files,
      ...(missingObjects === undefined ? {} : { missingObjects }),
    };
  } finally {
    release();
  }
};

/** Checks an archive without restoring it (`npm run ops -- backup:verify FILE`). */
export const describeBackup = (manifest: Manifest): string => {
  const fileCount =
    'count' in manifest.files ? `${manifest.files.count} files` : `${manifest.files.objects} ${manifest.files.storage} objects listed`;
  return `a backup of ${manifest.createdAt}: the ${manifest.database === 'pglite' ? 'embedded database' : 'PostgreSQL database'} and ${fileCount}`;
};
