import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where uploaded files live (DESIGN "files: disk | S3-compatible", ADR 0080): a folder (`createDiskFileStorage`)
 * or a bucket (`createS3FileStorage`, lib/s3-file-storage.ts). Streams in and out, never a whole file in
 * memory (STACK: buffering 100 MiB cost 237 MB). A failed `put` leaves nothing behind.
 */
export interface FileStorage {
  /** `disk` or `s3`: said in the start line and by the backup's manifest. */
  readonly kind: 'disk' | 's3';
  /** Stores the stream's bytes under a new random key; rejects (storing nothing) when the source fails. */
  put(source: Readable | AsyncIterable<Uint8Array>): Promise<{ key: string; size: number }>;
  /** The stored bytes; rejects with FileNotStoredError when the key holds nothing. */
  get(key: string): Promise<Readable>;
  /**
   * ADR 0080: an address the browser fetches the bytes from itself, valid a few minutes, answering them
   * as an attachment named `fileName` (S3: a signed GET); undefined when the server streams them (disk).
   */
  downloadUrl(key: string, fileName: string): Promise<string | undefined>;
  /** Removes the bytes; a key that holds nothing is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Every stored file and every partial one (an upload under way, or one a crash cut short), with its age
   * and size: the orphan sweep's walk and the backup's manifest. Only keys this storage made are listed.
   */
  entries(): AsyncGenerator<StoredEntry>;
  /** Removes a partial file (see `entries`). */
  deletePartial(key: string): Promise<void>;
}

export interface StoredEntry {
  key: string;
  partial: boolean;
  modifiedAt: Date;
  /** Bytes (of a partial entry: what has arrived so far, or 0 where the store does not say). */
  size: number;
}

export class FileNotStoredError extends Error {
  constructor(key: string) {
    super(`no stored file under key ${key}`);
    this.name = 'FileNotStoredError';
  }
}

/**
 * The store cannot take the bytes now (an object store unreachable or refusing a write): the operator's
 * problem, said once in the log; the customer is asked to try again (like a full disk, `code` ENOSPC-like).
 */
export class FileStorageUnavailableError extends Error {
  readonly code = 'ESTORAGE';
  constructor(cause: unknown) {
    super(`file storage unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'FileStorageUnavailableError';
  }
}

/** Keys are 32 random hex characters, made by `put`; anything else in a folder or bucket is not ours. */
export const KEY_PATTERN = /^[0-9a-f]{32}$/;
export const newStorageKey = (): string => randomBytes(16).toString('hex');
const PARTIAL_SUFFIX = '.part';
const isEnoent = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Creates `file` for writing (never an existing one), and its folder when that is missing. */
const openNew = async (file: string): Promise<FileHandle> => {
  try {
    return await open(file, 'wx');
  } catch (error) {
    if (!isEnoent(error)) throw error;
    await mkdir(path.dirname(file), { recursive: true });
    return open(file, 'wx');
  }
};

/** Writes the whole chunk (a write may take fewer bytes than asked); resolves its length. */
const writeAll = async (handle: FileHandle, chunk: Uint8Array): Promise<number> => {
  for (let offset = 0; offset < chunk.byteLength;) offset += (await handle.write(chunk, offset)).bytesWritten;
  return chunk.byteLength;
};

/** Files under `root/<first two key characters>/<key>`; keys are random hex, never a user's name. */
export const createDiskFileStorage = (root: string): FileStorage => {
  const pathOf = (key: string): string => {
    // Keys come from the database, but a key is never allowed to name a path outside root.
    if (!KEY_PATTERN.test(key)) throw new FileNotStoredError(key);
    return path.join(root, key.slice(0, 2), key);
  };
  return {
    kind: 'disk',
    put: async (source) => {
      const key = newStorageKey();
      const target = pathOf(key);
      const partial = `${target}${PARTIAL_SUFFIX}`;
      // Opened before the first byte is read: a file that opened lazily could appear after the cleanup
      // below ran, leaving a partial file behind. Its folder is made the first time one is missing only
      // (an upload costs open, write, close and rename; no mkdir or stat each time).
      const handle = await openNew(partial);
      let size = 0;
      try {
        try {
          for await (const chunk of source) size += await writeAll(handle, chunk);
        } finally {
          await handle.close();
        }
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { key, size };
    },
    get: async (key) => {
      try {
        const handle = await open(pathOf(key), 'r');
        return handle.createReadStream();
      } catch (error) {
        if (error instanceof FileNotStoredError || (error as NodeJS.ErrnoException).code === 'ENOENT') throw new FileNotStoredError(key);
        throw error;
      }
    },
    downloadUrl: async (key) => {
      pathOf(key);
      return undefined;
    },
    delete: async (key) => {
      await rm(pathOf(key), { force: true });
    },
    deletePartial: async (key) => {
      await rm(`${pathOf(key)}${PARTIAL_SUFFIX}`, { force: true });
    },
    entries: async function* () {
      let dirs: string[];
      try {
        dirs = await readdir(root);
      } catch (error) {
        if (isEnoent(error)) return;
        throw error;
      }
      for (const dir of dirs.filter((d) => /^[0-9a-f]{2}$/.test(d))) {
        let names: string[];
        try {
          names = await readdir(path.join(root, dir));
        } catch (error) {
          if (isEnoent(error)) continue;
          throw error;
        }
        for (const name of names) {
          const partial = name.endsWith(PARTIAL_SUFFIX);
          const key = partial ? name.slice(0, -PARTIAL_SUFFIX.length) : name;
          if (!KEY_PATTERN.test(key) || !key.startsWith(dir)) continue;
          try {
            const info = await stat(path.join(root, dir, name));
            yield { key, partial, modifiedAt: info.mtime, size: info.size };
          } catch (error) {
            // Renamed or removed meanwhile (an upload finishing, another sweep): nothing to report.
            if (!isEnoent(error)) throw error;
          }
        }
      }
    },
  };
};
