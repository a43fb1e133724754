import { Readable } from 'node:stream';
import type * as S3 from '@aws-sdk/client-s3';
import { attachmentDisposition } from './content-disposition';
import {
  FileNotStoredError,
  FileStorageUnavailableError,
  KEY_PATTERN,
  newStorageKey,
  type FileStorage,
  type StoredEntry,
} from './file-storage';

/** FILES_STORAGE=s3 (CONTRACT "Files at scale"): any S3-compatible store. */
export interface S3StorageConfig {
  /** Unset: AWS S3 itself (the region's endpoint). */
  endpoint: string | undefined;
  region: string;
  bucket: string;
  /** Unset: the SDK's default chain (an instance role, a web identity). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Path-style addresses (`endpoint/bucket/key`): MinIO and most self-hosted stores need it. */
  forcePathStyle: boolean;
}

/** ADR 0080: a signed download lives this long at most (CONTRACT: 5 minutes). */
export const SIGNED_URL_TTL_SECONDS = 300;
/**
 * Multipart parts of 5 MiB (S3's smallest), one in flight: an upload holds about two parts (the one
 * being cut and the one sending). Measured with `node bench/upload-memory.mjs --s3`: 100 MB at 43 MiB
 * above idle (budget 64 MB, ADR 0012); 8 MiB parts two at a time took 99 MiB.
 */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 1;

interface SdkError {
  name?: string;
  Code?: string;
  code?: string;
  $metadata?: { httpStatusCode?: number };
}
const statusOf = (error: unknown): number | undefined => (error as SdkError | null)?.$metadata?.httpStatusCode;
const nameOf = (error: unknown): string => {
  const e = (error ?? {}) as SdkError;
  return String(e.Code ?? e.name ?? e.code ?? 'Error');
};
/** An answer of the store itself, or no answer at all (refused, reset, timed out, unknown host). */
const isStoreFailure = (error: unknown): boolean =>
  statusOf(error) !== undefined || /^(ECONN|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EPIPE|TimeoutError)/.test(nameOf(error));

// The SDK (some 5 MB of code) is loaded only when FILES_STORAGE=s3 (ADR 0058).
const loadSdk = async () => {
  const [client, storage, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return { ...client, Upload: storage.Upload, getSignedUrl: presigner.getSignedUrl };
};

/**
 * The start-time check (ADR 0080): the bucket answers to the key, or the start stops with a sentence that
 * names the setting to fix. Only the bucket's head is asked: nothing is written.
 */
const refusal = (config: S3StorageConfig, error: unknown): Error => {
  const where = `bucket "${config.bucket}" at ${config.endpoint ?? `AWS S3 (${config.region})`}`;
  const status = statusOf(error);
  const reason =
    status === 403 || status === 401
      ? `${where} refused the access key (${status}): check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, and that the key may use this bucket`
      : status === 404
        ? `${where} does not exist (404): create it, or correct S3_BUCKET`
        : status === 301 || status === 400
          ? `${where} refused the request (${status} ${nameOf(error)}): check S3_REGION and S3_FORCE_PATH_STYLE`
          : status !== undefined
            ? `${where} answered ${status} ${nameOf(error)}`
            : `${where} could not be reached (${nameOf(error)}: ${error instanceof Error ? error.message : String(error)}): check S3_ENDPOINT`;
  return new Error(`Invalid configuration: FILES_STORAGE=s3, but the ${reason}`, { cause: error });
};

/**
 * Files as objects named by their key (32 hex characters) in one bucket, through the official AWS SDK v3:
 * uploads stream from the request as a multipart upload (aborted when the request fails), downloads are
 * signed GETs the browser follows. Throws (the start stops) when the bucket refuses.
 */
export const createS3FileStorage = async (config: S3StorageConfig): Promise<FileStorage> => {
  const sdk = await loadSdk();
  const client = new sdk.S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    ...(config.credentials ? { credentials: config.credentials } : {}),
    forcePathStyle: config.forcePathStyle,
    // Checksums only where the operation requires them: several S3-compatible stores (R2 for some
    // operations, older MinIO, s3rver) refuse the newer default CRC32 trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = config.bucket;
  try {
    await client.send(new sdk.HeadBucketCommand({ Bucket }));
  } catch (error) {
    client.destroy();
    throw refusal(config, error);
  }

  const checked = (key: string): string => {
    if (!KEY_PATTERN.test(key)) throw new FileNotStoredError(key);
    return key;
  };

  /** Incomplete multipart uploads of our keys; none where the store cannot list them (s3rver, ADR 0080). */
  async function* partials(prefix?: string): AsyncGenerator<{ key: string; uploadId: string; initiated: Date }> {
    let KeyMarker: string | undefined;
    let UploadIdMarker: string | undefined;
    for (;;) {
      let page: S3.ListMultipartUploadsCommandOutput;
      try {
        page = await client.send(new sdk.ListMultipartUploadsCommand({ Bucket, KeyMarker, UploadIdMarker, Prefix: prefix }));
      } catch (error) {
        if (statusOf(error) === 501 || nameOf(error) === 'NotImplemented') return;
        throw error;
      }
      for (const upload of page.Uploads ?? [])
        if (upload.Key && upload.UploadId && KEY_PATTERN.test(upload.Key))
          yield { key: upload.Key, uploadId: upload.UploadId, initiated: upload.Initiated ?? new Date(0) };
      if (!page.IsTruncated) return;
      KeyMarker = page.NextKeyMarker;
      UploadIdMarker = page.NextUploadIdMarker;
    }
  }

  return {
    kind: 's3',
    put: async (source) => {
      const key = newStorageKey();
      let size = 0;
      let sourceFailure: { error: unknown } | undefined;
      async function* counted(): AsyncGenerator<Uint8Array> {
        try {
          for await (const chunk of source) {
            size += chunk.length;
            yield chunk;
          }
        } catch (error) {
          sourceFailure = { error };
          throw error;
        }
      }
      const upload = new sdk.Upload({
        client,
        params: { Bucket, Key: key, Body: Readable.from(counted(), { objectMode: false }), ContentType: 'application/octet-stream' },
        partSize: PART_BYTES,
        queueSize: PARTS_IN_FLIGHT,
        // The SDK aborts a failed multipart upload itself; a store that cannot abort (s3rver) keeps the
        // parts outside the bucket's listing, and the sweep or the bucket's lifecycle rule ends them.
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        // The source's own error (too large, wrong content, the client gone) is what the caller judges,
        // even when the abort that followed failed too; the store's is an outage. Nothing was completed
        // either way, so there is no object to remove.
        if (sourceFailure) throw sourceFailure.error;
        if (isStoreFailure(error)) throw new FileStorageUnavailableError(error);
        throw error;
      }
      return { key, size };
    },
    get: async (key) => {
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket, Key: checked(key) }));
        if (!(answer.Body instanceof Readable)) throw new Error('the S3 client answered without a stream');
        return answer.Body;
      } catch (error) {
        if (error instanceof FileNotStoredError || statusOf(error) === 404) throw new FileNotStoredError(key);
        throw error;
      }
    },
    downloadUrl: async (key, fileName) =>
      sdk.getSignedUrl(
        client,
        new sdk.GetObjectCommand({
          Bucket,
          Key: checked(key),
          ResponseContentDisposition: attachmentDisposition(fileName),
          ResponseContentType: 'application/octet-stream',
          ResponseCacheControl: 'no-store',
        }),
        { expiresIn: SIGNED_URL_TTL_SECONDS },
      ),
    delete: async (key) => {
      // S3's DeleteObject answers 204 for a key that holds nothing.
      await client.send(new sdk.DeleteObjectCommand({ Bucket, Key: checked(key) }));
    },
    deletePartial: async (key) => {
      for await (const upload of partials(checked(key)))
        if (upload.key === key) await client.send(new sdk.AbortMultipartUploadCommand({ Bucket, Key: key, UploadId: upload.uploadId }));
    },
    entries: async function* (): AsyncGenerator<StoredEntry> {
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new sdk.ListObjectsV2Command({ Bucket, ContinuationToken }));
        for (const object of page.Contents ?? [])
          if (object.Key && KEY_PATTERN.test(object.Key))
            yield { key: object.Key, partial: false, modifiedAt: object.LastModified ?? new Date(0), size: object.Size ?? 0 };
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      for await (const upload of partials()) yield { key: upload.key, partial: true, modifiedAt: upload.initiated, size: 0 };
    },
  };
};
