import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type TestS3Server } from '../testing/s3-server';
import { createDiskFileStorage, FileNotStoredError, type FileStorage } from './file-storage';
import { createS3FileStorage, SIGNED_URL_TTL_SECONDS } from './s3-file-storage';

const readAll = async (stream: Readable): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const MB = 1024 * 1024;
async function* megabytes(count: number, fill = 7) {
  const chunk = Buffer.alloc(MB, fill);
  for (let i = 0; i < count; i += 1) yield chunk;
}

/** What one kind of storage needs around the shared suite: how to make it, and how to see inside it. */
interface Backend {
  storage: FileStorage;
  /** Every complete object or file, and every partial one, as the store itself sees them (not `entries`). */
  contents(): Promise<string[]>;
  /** Puts something that is not the storage's own (another program's file or object) where it lives. */
  putForeign(name: string): Promise<void>;
  close(): Promise<void>;
}

const disk = async (): Promise<Backend> => {
  const root = await mkdtemp(path.join(tmpdir(), 'file-storage-'));
  return {
    storage: createDiskFileStorage(root),
    contents: async () => (await readdir(root, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => d.name),
    putForeign: (name) => writeFile(path.join(root, name), 'not ours'),
    close: () => rm(root, { recursive: true, force: true }),
  };
};

const s3 = async (): Promise<Backend> => {
  const server: TestS3Server = await startS3Server();
  const client = new S3Client({
    endpoint: server.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: server.config.credentials,
  });
  return {
    storage: await createS3FileStorage(server.config),
    // The bucket's folder on s3rver's disk: objects, and the parts of multipart uploads not completed.
    contents: async () =>
      (await readdir(server.directory, { recursive: true, withFileTypes: true }))
        .filter((d) => d.isFile() && !d.name.startsWith('.'))
        .map((d) => path.relative(server.directory, path.join(d.parentPath, d.name))),
    putForeign: async (name) => {
      await client.send(new PutObjectCommand({ Bucket: server.bucket, Key: name, Body: 'not ours' }));
    },
    close: async () => {
      client.destroy();
      await server.close();
    },
  };
};

// ADR 0080: one suite, run against the folder and against a real S3-compatible server (s3rver).
describe.each([
  ['disk', disk],
  ['s3', s3],
] as const)('%s FileStorage', (kind, make) => {
  let backend: Backend;
  let storage: FileStorage;
  beforeAll(async () => {
    backend = await make();
    storage = backend.storage;
  });
  afterAll(async () => backend.close());

  it('says which kind it is', () => {
    expect(storage.kind).toBe(kind);
  });

  it('stores a stream and gives the same bytes back', async () => {
    const bytes = Buffer.from('%PDF-1.7 hello');
    const { key, size } = await storage.put(Readable.from([bytes]));
    expect(size).toBe(bytes.length);
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(await readAll(await storage.get(key))).toEqual(bytes);
  });

  it('streams 20 MB chunk by chunk (on S3 a multipart upload) and reports its size', async () => {
    const { key, size } = await storage.put(megabytes(20));
    expect(size).toBe(20 * MB);
    let total = 0;
    for await (const part of await storage.get(key)) total += (part as Buffer).length;
    expect(total).toBe(20 * MB);
    await storage.delete(key);
  });

  it('leaves nothing behind when the source fails half way, before the first part and after several', async () => {
    const listKeys = async (): Promise<string[]> => {
      const keys = [];
      for await (const entry of storage.entries()) keys.push(entry.key);
      return keys;
    };
    const before = await backend.contents();
    const keysBefore = await listKeys();
    async function* failingAfter(count: number) {
      yield* megabytes(count, 1);
      throw new Error('client went away');
    }
    await expect(storage.put(failingAfter(0))).rejects.toThrow('client went away');
    await expect(storage.put(failingAfter(1))).rejects.toThrow('client went away');
    // Past three 5 MiB parts: on S3 the multipart upload has begun and is aborted.
    await expect(storage.put(failingAfter(18))).rejects.toThrow('client went away');
    // No object or file appeared. (s3rver cannot abort a multipart upload: its parts stay in its upload
    // folder, outside the bucket's listing; a real store aborts them, see ADR 0080.)
    const after = await backend.contents();
    expect(after.filter((f) => !before.includes(f) && !f.includes('._S3rver_uploads'))).toEqual([]);
    expect(await listKeys()).toEqual(keysBefore);
  });

  it('deletes, and a deleted or unknown key is not stored', async () => {
    const { key } = await storage.put(Readable.from([Buffer.from('x')]));
    await storage.delete(key);
    await expect(storage.get(key)).rejects.toBeInstanceOf(FileNotStoredError);
    await expect(storage.get('0'.repeat(32))).rejects.toBeInstanceOf(FileNotStoredError);
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('refuses a key that could name a path outside its folder or another object', async () => {
    await expect(storage.get('../../etc/passwd')).rejects.toBeInstanceOf(FileNotStoredError);
    await expect(storage.delete('../x')).rejects.toBeInstanceOf(FileNotStoredError);
    await expect(storage.downloadUrl('backup/manifest.json', 'a.pdf')).rejects.toBeInstanceOf(FileNotStoredError);
  });

  it('lists its own files with their size and age (the sweep and the backup manifest), never another program’s', async () => {
    const { key } = await storage.put(megabytes(2));
    await backend.putForeign('README');
    const listed = [];
    for await (const entry of storage.entries()) listed.push(entry);
    const mine = listed.find((e) => e.key === key);
    expect(mine).toMatchObject({ key, partial: false, size: 2 * MB });
    expect(Math.abs((mine?.modifiedAt.getTime() ?? 0) - Date.now())).toBeLessThan(60_000);
    expect(listed.every((e) => /^[0-9a-f]{32}$/.test(e.key))).toBe(true);
    await storage.delete(key);
    for await (const entry of storage.entries()) expect(entry.key).not.toBe(key);
  });

  it('hands out a download address only where the store serves the bytes itself (S3: signed, 5 minutes)', async () => {
    const bytes = Buffer.from('%PDF-1.7 signed');
    const { key } = await storage.put(Readable.from([bytes]));
    const url = await storage.downloadUrl(key, 'Résumé "final".pdf');
    if (kind === 'disk') {
      expect(url).toBeUndefined();
      return;
    }
    expect(url).toBeDefined();
    const signed = new URL(url ?? '');
    expect(Number(signed.searchParams.get('X-Amz-Expires'))).toBe(SIGNED_URL_TTL_SECONDS);
    expect(SIGNED_URL_TTL_SECONDS).toBeLessThanOrEqual(300);
    const answer = await fetch(signed);
    expect(answer.status).toBe(200);
    expect(Buffer.from(await answer.arrayBuffer())).toEqual(bytes);
    expect(answer.headers.get('content-disposition')).toBe(
      `attachment; filename="R_sum_ _final_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%22final%22.pdf`,
    );
    expect(answer.headers.get('content-type')).toBe('application/octet-stream');
    // A SigV4 query signature. (s3rver checks the access key id but not the signature itself, ADR 0080:
    // that a changed key or name is refused is AWS's, R2's and MinIO's part.)
    expect(signed.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(signed.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(signed.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\//);
  });
});

describe('disk FileStorage folders', () => {
  it('makes its folder and a key folder when missing, also after an operator emptied it', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'file-storage-'));
    const root = path.join(parent, 'files');
    try {
      const storage = createDiskFileStorage(root);
      const first = await storage.put(Readable.from([Buffer.from('one')]));
      await rm(root, { recursive: true });
      const second = await storage.put(Readable.from([Buffer.from('two')]));
      expect(await readAll(await storage.get(second.key))).toEqual(Buffer.from('two'));
      await expect(storage.get(first.key)).rejects.toBeInstanceOf(FileNotStoredError);
      expect(await readdir(path.join(root, second.key.slice(0, 2)))).toEqual([second.key]);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});

describe('S3 FileStorage at start (ADR 0080)', () => {
  let server: TestS3Server;
  beforeAll(async () => {
    server = await startS3Server();
  });
  afterAll(async () => server.close());

  it('stops with a sentence naming the settings when the key is wrong', async () => {
    await expect(
      createS3FileStorage({ ...server.config, credentials: { accessKeyId: 'WRONG', secretAccessKey: 'WRONG-SECRET' } }),
    ).rejects.toThrow(
      `Invalid configuration: FILES_STORAGE=s3, but the bucket "files" at ${server.endpoint} refused the access key (403): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, and that the key may use this bucket`,
    );
  });

  it('stops when the bucket does not exist', async () => {
    await expect(createS3FileStorage({ ...server.config, bucket: 'no-such-bucket' })).rejects.toThrow(
      `Invalid configuration: FILES_STORAGE=s3, but the bucket "no-such-bucket" at ${server.endpoint} does not exist (404): create it, or correct S3_BUCKET`,
    );
  });

  it('stops when nothing answers at the endpoint', async () => {
    await expect(createS3FileStorage({ ...server.config, endpoint: 'http://127.0.0.1:9' })).rejects.toThrow(
      /^Invalid configuration: FILES_STORAGE=s3, but the bucket "files" at http:\/\/127\.0\.0\.1:9 could not be reached \(.*\): check S3_ENDPOINT$/,
    );
  });
});
