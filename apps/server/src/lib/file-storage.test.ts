import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskFileStorage, FileNotStoredError, type FileStorage } from './file-storage';

let root: string;
let storage: FileStorage;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'file-storage-'));
  storage = createDiskFileStorage(root);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const readAll = async (stream: Readable): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Every file under root, walked recursively. */
const filesUnder = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name);

describe('disk FileStorage', () => {
  it('stores a stream and gives the same bytes back', async () => {
    const bytes = Buffer.from('%PDF-1.7 hello');
    const { key, size } = await storage.put(Readable.from([bytes]));
    expect(size).toBe(bytes.length);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(await readAll(await storage.get(key))).toEqual(bytes);
  });

  it('streams 20 MB chunk by chunk and reports its size', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 7);
    async function* twentyMegabytes() {
      for (let i = 0; i < 20; i += 1) yield chunk;
    }
    const { key, size } = await storage.put(twentyMegabytes());
    expect(size).toBe(20 * 1024 * 1024);
    let total = 0;
    for await (const part of await storage.get(key)) total += (part as Buffer).length;
    expect(total).toBe(20 * 1024 * 1024);
    await storage.delete(key);
  });

  it('leaves nothing behind when the source fails half way', async () => {
    const before = await filesUnder(root);
    async function* failing() {
      yield Buffer.alloc(1024, 1);
      throw new Error('client went away');
    }
    await expect(storage.put(failing())).rejects.toThrow('client went away');
    expect(await filesUnder(root)).toEqual(before);
  });

  it('deletes, and a deleted or unknown key is not stored', async () => {
    const { key } = await storage.put(Readable.from([Buffer.from('x')]));
    await storage.delete(key);
    await expect(storage.get(key)).rejects.toBeInstanceOf(FileNotStoredError);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('refuses a key that could name a path outside its folder', async () => {
    await expect(storage.get('../../etc/passwd')).rejects.toBeInstanceOf(FileNotStoredError);
  });
});
