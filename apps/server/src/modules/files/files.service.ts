import type { Readable } from 'node:stream';
import {
  cleanFileName,
  DomainError,
  ERROR_CODE,
  FILE_CONTENT_MISMATCH_MESSAGE,
  FILE_MESSAGE,
  FILE_MISSING_MESSAGE,
  FILE_NOT_STORED_MESSAGE,
  FILE_SIGNATURE_HEAD_BYTES,
  fileQuotaExceededMessage,
  fileExtension,
  matchesFileSignature,
  ORDER_FILE_MAX_BYTES,
  ORDER_STATUS,
  customerMayRemoveOwnFile,
  MESSENGER_FILE_MAX_BYTES,
  validateMessengerFile,
  validateOrderFile,
  type CustomerFile,
  type OrderFile,
  customerSeesWriterFiles,
  type StaffOrderFile,
} from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { FileStorage } from '../../lib/file-storage';
import type { Logger } from '../../lib/logger';
import { createFilesRepo, type FileSource, type StoredOrderFile } from './files.repo';
import { notFound } from '../../lib/errors';

const NOT_REMOVABLE = 'This file can no longer be removed';

/** Ids in paths are strings: anything but a positive integer is an id that does not exist. */
/** The name as stored, shown and downloaded: the domain's one rule for every upload path (ADR 0068). */
const cleanName = cleanFileName;

const toWire = (f: StoredOrderFile): OrderFile => ({ id: f.id, name: f.name, typeName: f.typeName, size: f.size, remote: true });

class FileTooLargeError extends Error {}
class QuotaExceededError extends Error {}
class ContentMismatchError extends Error {}

/** A file on disk that no row points to is swept once it is this old (an upload under way is younger). */
export const ORPHAN_FILE_MIN_AGE_MS = 60 * 60 * 1000;

/**
 * Passes the upload through, counting bytes and checking the head against the extension (ADR 0012):
 * too many bytes or a wrong head fails the stream, and FileStorage then keeps nothing. `quotaLeft` is
 * what the customer's storage quota still allows (ADR 0039): the byte that crosses it fails the stream.
 */
async function* guardedUpload(
  source: AsyncIterable<Uint8Array>,
  extension: string,
  maxBytes: number,
  quotaLeft: number = Number.POSITIVE_INFINITY,
): AsyncGenerator<Uint8Array> {
  let total = 0;
  let head: Buffer | null = Buffer.alloc(0);
  for await (const chunk of source) {
    total += chunk.length;
    if (total > maxBytes) throw new FileTooLargeError();
    if (total > quotaLeft) throw new QuotaExceededError();
    if (head) {
      head = Buffer.concat([head, chunk]);
      if (head.length >= FILE_SIGNATURE_HEAD_BYTES) {
        if (!matchesFileSignature(extension, head.subarray(0, FILE_SIGNATURE_HEAD_BYTES))) throw new ContentMismatchError();
        head = null;
      }
    }
    yield chunk;
  }
  if (head && !matchesFileSignature(extension, head)) throw new ContentMismatchError();
}

/**
 * A file ready to be downloaded, its bytes not opened yet (ADR 0080): `open` gives a short-lived address
 * the browser fetches from itself (S3: a signed URL) or the stream the server sends (disk). A route that
 * only hands out a download link never opens it.
 */
export interface StoredDownload {
  name: string;
  size: number;
  open: () => Promise<{ url: string } | { stream: Readable }>;
}

/** @fastify/multipart's own limit error (the plugin counts too). */
const isMultipartSizeError = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'FST_REQ_FILE_TOO_LARGE';

/** The disk (or the storage's quota) is full: nothing more can be stored until an operator makes room. */
const isStorageFull = (error: unknown): boolean =>
  typeof error === 'object' && error !== null && ['ENOSPC', 'EDQUOT', 'ESTORAGE'].includes(String((error as { code?: unknown }).code));

/** SPEC §5: the rules of an order or revision file, and of a chat attachment. */
const UPLOAD_RULES = {
  order: { maxBytes: ORDER_FILE_MAX_BYTES, tooLarge: FILE_MESSAGE.orderTooLarge, problem: validateOrderFile },
  messenger: { maxBytes: MESSENGER_FILE_MAX_BYTES, tooLarge: FILE_MESSAGE.messengerTooLarge, problem: validateMessengerFile },
} as const;

/** A file streamed to storage and not recorded yet: its key, the bytes stored, its clean name and type. */
export interface ReceivedFile {
  key: string;
  size: number;
  name: string;
  typeName: string;
}

export interface IncomingFile {
  filename: string;
  stream: AsyncIterable<Uint8Array>;
  /** True once the multipart parser cut the file at its size limit (it ends the stream quietly). */
  truncated: () => boolean;
}

/** ADR 0090: a write in the transaction that records a file (its id, name and size), e.g. the audit entry of a staff delivery. */
export type OnFileRecorded = (tx: Queryable, file: { id: number; name: string; size: number }) => Promise<void>;

export const createFilesService = ({
  db,
  storage,
  clock,
  log,
  uploadQuotaBytes = Number.POSITIVE_INFINITY,
}: {
  db: Db;
  storage: FileStorage;
  clock: Clock;
  log: Logger;
  /** ADR 0039, 0073: the bytes of uploads one customer may keep (staff uploads do not count). */
  uploadQuotaBytes?: number;
}) => {
  const repo = createFilesRepo(db);
  const downloadOf = (file: { name: string; size: number; storageKey: string }): StoredDownload => ({
    name: file.name,
    size: file.size,
    open: async () => {
      const url = await storage.downloadUrl(file.storageKey, file.name);
      return url === undefined ? { stream: await storage.get(file.storageKey) } : { url };
    },
  });
  const quotaExceeded = (): DomainError => new DomainError(ERROR_CODE.tooLarge, fileQuotaExceededMessage(uploadQuotaBytes));
  const counts = (quotaOf: number | null): quotaOf is number => quotaOf !== null && Number.isFinite(uploadQuotaBytes);

  const ownOrder = async (customerId: number, orderId: number): Promise<{ orderId: number; status: number }> => {
    const status = await repo.orderStatus({ customerId, orderId });
    if (status === null) throw notFound();
    return { orderId, status };
  };

  /**
   * ADR 0073, the one upload use case, first half: every upload path (order and revision files, staff
   * deliveries, chat attachments) streams its file here, through the guard of its `rules`. When it counts
   * against the quota of customer `quotaOf`, the byte that crosses what is left (the stored files, less
   * `pendingBytes` this request already received) fails the stream. A refused or broken upload (too
   * large, wrong content, over the quota, the disk full) keeps nothing.
   */
  const receive = async ({
    file,
    rules,
    quotaOf,
    pendingBytes = 0,
  }: {
    file: IncomingFile;
    rules: keyof typeof UPLOAD_RULES;
    quotaOf: number | null;
    pendingBytes?: number;
  }): Promise<ReceivedFile> => {
    const rule = UPLOAD_RULES[rules];
    const name = cleanName(file.filename);
    const problem = rule.problem({ name, size: 0 });
    if (problem) throw new DomainError(ERROR_CODE.validation, problem);
    const extension = fileExtension(name);
    const quotaLeft = counts(quotaOf)
      ? uploadQuotaBytes - (await repo.customerStoredBytes({ customerId: quotaOf })) - pendingBytes
      : Number.POSITIVE_INFINITY;
    if (quotaLeft <= 0) throw quotaExceeded();
    let stored: { key: string; size: number };
    try {
      stored = await storage.put(guardedUpload(file.stream, extension, rule.maxBytes, quotaLeft));
    } catch (error) {
      if (error instanceof QuotaExceededError) throw quotaExceeded();
      if (error instanceof FileTooLargeError || isMultipartSizeError(error)) throw new DomainError(ERROR_CODE.tooLarge, rule.tooLarge);
      if (error instanceof ContentMismatchError) throw new DomainError(ERROR_CODE.validation, FILE_CONTENT_MISMATCH_MESSAGE);
      if (isStorageFull(error)) {
        // The operator's problem, not the customer's: said once here, and the customer is told to retry.
        log.error({ err: error }, 'file storage is full: an upload was refused');
        throw new DomainError(ERROR_CODE.insufficientStorage, FILE_NOT_STORED_MESSAGE);
      }
      throw error;
    }
    if (file.truncated()) {
      await storage.delete(stored.key);
      throw new DomainError(ERROR_CODE.tooLarge, rule.tooLarge);
    }
    return { key: stored.key, size: stored.size, name, typeName: extension };
  };

  /**
   * ADR 0073, second half: in the transaction that records the received files (`tx`), the quota of
   * customer `quotaOf` is locked and checked again with their `bytes`: two uploads racing on any paths
   * cannot both pass. Over the quota it throws, and the caller's transaction records nothing. Uploads
   * that do not count (`quotaOf` null: staff) pass.
   */
  const charge = async (tx: Queryable, { quotaOf, bytes }: { quotaOf: number | null; bytes: number }): Promise<void> => {
    if (!counts(quotaOf)) return;
    const locked = createFilesRepo(tx);
    await locked.lockUploadQuota({ customerId: quotaOf });
    if ((await locked.customerStoredBytes({ customerId: quotaOf })) + bytes > uploadQuotaBytes) throw quotaExceeded();
  };

  /**
   * An order or revision file, the customer's or a staff member's: received, then recorded in one
   * transaction with its charge. The file is in place before its row, and removed again when the row is
   * not written: both or neither. A crash between the two leaves a file without a row, which the orphan
   * sweep removes.
   */
  const store = async ({
    customerId,
    orderId,
    source,
    uploadedBy,
    file,
    revisionId = null,
    onRecorded,
  }: {
    customerId: number;
    orderId: number;
    source: FileSource;
    uploadedBy: number;
    file: IncomingFile | undefined;
    revisionId?: number | null;
    /** ADR 0090: more writes in the row's transaction (a staff delivery's audit entry). */
    onRecorded?: OnFileRecorded | undefined;
  }): Promise<OrderFile> => {
    if (!file) throw new DomainError(ERROR_CODE.validation, FILE_MISSING_MESSAGE);
    // ADR 0073: the customer's own files count against their quota; a staff delivery does not.
    const quotaOf = source === 'customer' ? customerId : null;
    const received = await receive({ file, rules: 'order', quotaOf });
    try {
      const row = await db.transaction(async (tx) => {
        await charge(tx, { quotaOf, bytes: received.size });
        const inserted = await createFilesRepo(tx).insert({
          orderId,
          customerId,
          source,
          uploadedBy,
          name: received.name,
          typeName: received.typeName,
          size: received.size,
          storageKey: received.key,
          now: clock.now(),
          revisionId,
        });
        // The insert checks the order is the customer's: no row is another customer's order (CONTRACT: 404).
        if (!inserted) throw notFound();
        await onRecorded?.(tx, { id: Number(inserted.id), name: received.name, size: received.size });
        return inserted;
      });
      return toWire(row);
    } catch (error) {
      await storage.delete(received.key);
      throw error;
    }
  };

  return {
    /**
     * A chat attachment (ADR 0047), received with the messenger's rules (SPEC §5: 15 MB, the messenger
     * types, content fitting the extension). A customer's (`quotaOf`) counts against their quota, with the
     * message's attachments received before it (`pendingBytes`). Returns the stored key; the chat module
     * records it in a transaction that calls `chargeUploads` first (or calls `discard`), and the orphan
     * sweep removes a key no row took.
     */
    storeMessengerFile: async ({
      quotaOf,
      pendingBytes = 0,
      file,
    }: {
      quotaOf: number | null;
      pendingBytes?: number;
      file: IncomingFile;
    }): Promise<ReceivedFile> => receive({ file, rules: 'messenger', quotaOf, pendingBytes }),
    /** ADR 0073: in the transaction that records uploads another module stores (chat), their charge; see `charge`. */
    chargeUploads: charge,
    /** Removes a stored key no row took (a refused or repeated chat message). */
    discard: async (key: string): Promise<void> => storage.delete(key),
    /** A stored key as a download (the chat module found the file and checked who asks). */
    storedDownload: (file: { name: string; size: number; storageKey: string }): StoredDownload => downloadOf(file),

    /**
     * Removes stored files no row points to, and partial ones, once older than `minAgeMs` (ADR 0039, 0080):
     * what a crash between storing and recording an upload, or during one, left behind (on S3: objects,
     * and multipart uploads never completed). Returns the count.
     */
    sweepOrphans: async ({ now, minAgeMs = ORPHAN_FILE_MIN_AGE_MS }: { now: Date; minAgeMs?: number }): Promise<number> => {
      const cutoff = now.getTime() - minAgeMs;
      let removed = 0;
      let batch: string[] = [];
      const flush = async (): Promise<void> => {
        const known = await repo.knownStorageKeys(batch);
        for (const key of batch.filter((k) => !known.has(k))) {
          await storage.delete(key);
          removed += 1;
        }
        batch = [];
      };
      for await (const entry of storage.entries()) {
        if (entry.modifiedAt.getTime() > cutoff) continue;
        if (entry.partial) {
          await storage.deletePartial(entry.key);
          removed += 1;
        } else {
          batch.push(entry.key);
          if (batch.length >= 500) await flush();
        }
      }
      await flush();
      return removed;
    },

    /** Checks the order before the body is read: another customer's order is a 404 (CONTRACT). */
    assertOwnOrder: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<void> => {
      await ownOrder(customerId, orderId);
    },

    /**
     * SPEC §5 "Files": extension list, 100MB, and (ADR 0012) the content must fit the extension. The bytes
     * stream to storage; a refused or broken upload leaves no file and no row.
     */
    upload: async ({
      customerId,
      orderId,
      file,
    }: {
      customerId: number;
      orderId: number;
      file: IncomingFile | undefined;
    }): Promise<OrderFile> =>
      // The route checked the order before reading the body (`assertOwnOrder`); the insert checks it again.
      store({ customerId, orderId, source: 'customer', uploadedBy: customerId, file }),

    /**
     * CONTRACT "Staff side" delivery: the same checks and streaming as a customer's upload, stored as a
     * writer file of the customer's order (the staff module has checked who may deliver).
     */
    deliver: async ({
      customerId,
      orderId,
      uploadedBy,
      file,
      onRecorded,
    }: {
      customerId: number;
      orderId: number;
      uploadedBy: number;
      file: IncomingFile | undefined;
      onRecorded?: OnFileRecorded;
    }): Promise<OrderFile> => store({ customerId, orderId, source: 'writer', uploadedBy, file, onRecorded }),

    /**
     * ADR 0044: a file of a revision, the customer's (`customer`) or the writer's (`writer`), with the
     * same checks and streaming as an order file. The revisions module has checked who may add it.
     */
    storeForRevision: async (f: {
      customerId: number;
      orderId: number;
      revisionId: number;
      source: FileSource;
      uploadedBy: number;
      file: IncomingFile | undefined;
      onRecorded?: OnFileRecorded;
    }): Promise<OrderFile> => store(f),
    /** The files of one of the customer's revisions (the revisions module has found the revision). */
    listForRevision: async ({
      customerId,
      revisionId,
      source,
    }: {
      customerId: number;
      revisionId: number;
      source: FileSource;
    }): Promise<OrderFile[]> => {
      const files = await repo.listForRevision({ customerId, revisionId, source });
      // ADR 0071: a refunded order's writer files are no longer the customer's.
      const [first] = files;
      if (source === 'writer' && first && !customerSeesWriterFiles((await repo.orderStatus({ customerId, orderId: first.orderId })) ?? 0))
        return [];
      return files.map(toWire);
    },
    listForOrder: async ({
      customerId,
      orderId,
      source,
    }: {
      customerId: number;
      orderId: number;
      source: FileSource;
    }): Promise<OrderFile[]> => {
      const order = await ownOrder(customerId, orderId);
      // ADR 0071: a refunded order's writer files are no longer the customer's (support still has them).
      if (source === 'writer' && !customerSeesWriterFiles(order.status)) return [];
      return (await repo.listForOrder({ customerId, orderId: order.orderId, source })).map(toWire);
    },

    listUploaded: async ({ customerId }: { customerId: number }): Promise<CustomerFile[]> =>
      (await repo.listUploadedBy({ customerId })).map((f) => ({ ...toWire(f), orderId: f.orderId })),

    /** The latest file the writer delivered (SPEC §3 "fileForDownload"). */
    latestWriterFile: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<OrderFile | null> => {
      if (!customerSeesWriterFiles((await repo.orderStatus({ customerId, orderId })) ?? 0)) return null;
      const file = await repo.latest({ customerId, orderId, source: 'writer' });
      return file ? toWire(file) : null;
    },

    download: async ({ customerId, fileId }: { customerId: number; fileId: number }): Promise<StoredDownload> => {
      const file = await repo.find({ customerId, fileId });
      // ADR 0071: a refunded order's writer files answer 404 to the customer, like anyone else's.
      if (!file || (file.source === 'writer' && !customerSeesWriterFiles(file.orderStatus))) throw notFound();
      return downloadOf(file);
    },

    /**
     * ADR 0071: staff's view of an order's files (customer's and writer's, revision files included):
     * support sees any order's, the staff module has checked a writer's assignment.
     */
    listForStaff: async ({ orderId }: { orderId: number }): Promise<StaffOrderFile[]> =>
      (await repo.listForStaff({ orderId })).map((f) => ({ ...toWire(f), source: f.source })),

    /** ADR 0071: one file of the order for staff (404 when it is not that order's). */
    downloadForStaff: async ({ orderId, fileId }: { orderId: number; fileId: number }): Promise<StoredDownload> => {
      const file = await repo.findForStaff({ orderId, fileId });
      if (!file) throw notFound();
      return downloadOf(file);
    },

    /**
     * Only a file the customer uploaded, while the order may still be edited (CONTRACT "Orders", ADR 0096):
     * another customer's file (or one already removed) is a 404; the writer's files (deliveries included)
     * and a file of an order past that point are refused (409, NOT_REMOVABLE).
     */
    remove: async ({ customerId, fileId }: { customerId: number; fileId: number }): Promise<void> => {
      const file = await repo.find({ customerId, fileId });
      if (!file) throw notFound();
      const editable = Object.values(ORDER_STATUS).filter(customerMayRemoveOwnFile);
      const key = await repo.deleteUploaded({ customerId, fileId, statuses: editable });
      if (key === null) throw new DomainError(ERROR_CODE.conflict, NOT_REMOVABLE);
      await storage.delete(key);
    },
  };
};
export type FilesService = ReturnType<typeof createFilesService>;
