import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Where uploaded files live (DESIGN "files: disk | S3-compatible"). Streams in and out, never a whole
 * file in memory (STACK: buffering 100 MiB cost 237 MB). A failed `put` leaves nothing behind.
 */
export interface FileStorage {
  /** Stores the stream's bytes under a new random key; rejects (storing nothing) when the source fails. */
  put(source: Readable | AsyncIterable<Uint8Array>): Promise<{ key: string; size: number }>;
  /** The stored bytes; rejects with FileNotStoredError when the key holds nothing. */
  get(key: string): Promise<Readable>;
  /** Removes the bytes; a key that holds nothing is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored file and every partial one (an upload under way, or one a crash cut short), with its age. */
  entries(): AsyncGenerator<StoredEntry>;
  /** Removes a partial file (see `entries`). */
  deletePartial(key: string): Promise<void>;
}

export interface StoredEntry {
  key: string;
  partial: boolean;
  modifiedAt: Date;
}

export class FileNotStoredError extends Error {
  constructor(key: string) {
    super(`no stored file under key ${key}`);
    this.name = 'FileNotStoredError';
  }
}

const KEY_PATTERN = /^[0-9a-f]{32}$/;
const PARTIAL_SUFFIX = '.part';
const isEnoent = (error: unknown): boolean => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Files under `root/<first two key characters>/<key>`; keys are random hex, never a user's name. */
export const createDiskFileStorage = (root: string): FileStorage => {
  const pathOf = (key: string): string => {
    // Keys come from the database, but a key is never allowed to name a path outside root.
    if (!KEY_PATTERN.test(key)) throw new FileNotStoredError(key);
    return path.join(root, key.slice(0, 2), key);
  };
  return {
    put: async (source) => {
      const key = randomBytes(16).toString('hex');
      const target = pathOf(key);
      const partial = `${target}${PARTIAL_SUFFIX}`;
      await mkdir(path.dirname(target), { recursive: true });
      // Opened before the pipeline starts: a stream that opens lazily could create the file after the
      // cleanup below ran, leaving a partial file behind.
      const handle = await open(partial, 'wx');
      try {
        await pipeline(source, handle.createWriteStream());
        await rename(partial, target);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { key, size: (await stat(target)).size };
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
            yield { key, partial, modifiedAt: (await stat(path.join(root, dir, name))).mtime };
          } catch (error) {
            // Renamed or removed meanwhile (an upload finishing, another sweep): nothing to report.
            if (!isEnoent(error)) throw error;
          }
        }
      }
    },
  };
};
