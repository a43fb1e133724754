import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3StorageConfig } from '../lib/s3-file-storage';

/** s3rver's fixed key pair: any other key is refused (403), like a store with a wrong key. */
const ACCESS_KEY = 'S3RVER';

export interface TestS3Server {
  endpoint: string;
  bucket: string;
  /** Where s3rver keeps the bucket on disk (its incomplete multipart uploads too). */
  directory: string;
  config: S3StorageConfig;
  /** The variables that point the server at this bucket (FILES_STORAGE=s3 and the S3_* settings). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * ADR 0080: a real S3-compatible server (s3rver, an npm package: HTTP, SigV4 signatures checked,
 * path-style) on a free port of 127.0.0.1, with one empty bucket, for one test file.
 */
export const startS3Server = async (bucket = 'files'): Promise<TestS3Server> => {
  const directory = await mkdtemp(path.join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    directory,
    config: {
      endpoint,
      region: 'us-east-1',
      bucket,
      credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: ACCESS_KEY },
      forcePathStyle: true,
    },
    env: {
      FILES_STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_BUCKET: bucket,
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: ACCESS_KEY,
      S3_FORCE_PATH_STYLE: '1',
    },
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
};
