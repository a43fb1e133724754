import type { Queryable } from '../../db/client';

export type FileSource = 'customer' | 'writer';

export interface StoredOrderFile {
  id: number;
  orderId: number;
  source: FileSource;
  name: string;
  typeName: string;
  size: number;
  storageKey: string;
}

interface FileRow {
  id: number;
  order_id: number;
  source: FileSource;
  name: string;
  type_name: string;
  size_bytes: number;
  storage_key: string;
}
const toFile = (r: FileRow): StoredOrderFile => ({
  id: r.id,
  orderId: r.order_id,
  source: r.source,
  name: r.name,
  typeName: r.type_name,
  size: Number(r.size_bytes),
  storageKey: r.storage_key,
});
/** ADR 0039, 0048, 0073: a customer's quota counts their order and revision uploads and the files they sent in chat. */
const CUSTOMER_STORED_BYTES = `SELECT (
    (SELECT COALESCE(SUM(size_bytes), 0) FROM order_files WHERE customer_id = $1 AND source = 'customer')
  + (SELECT COALESCE(SUM(size_bytes), 0) FROM message_files WHERE uploaded_by = $1)
  )::text AS bytes`;
/** ADR 0073: the first key of the quota's advisory lock (the second is the customer id); "UPQT". */
const UPLOAD_QUOTA_LOCK = 0x55505154;
const COLUMNS = 'f.id, f.order_id, f.source, f.name, f.type_name, f.size_bytes, f.storage_key';

/** Order files: every query carries the customer id in its WHERE (DESIGN rule 3). */
export const createFilesRepo = (db: Queryable) => ({
  /** The status of one of the customer's orders; null when it is not theirs. */
  orderStatus: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<number | null> => {
    const [row] = await db.query<{ status_id: number }>('SELECT status_id FROM orders WHERE id = $1 AND customer_id = $2', [
      orderId,
      customerId,
    ]);
    return row?.status_id ?? null;
  },

  /** Records a stored file (in the caller's transaction, after `lockUploadQuota` when it counts, ADR 0073). */
  insert: async (file: {
    orderId: number;
    customerId: number;
    source: FileSource;
    uploadedBy: number;
    name: string;
    typeName: string;
    size: number;
    storageKey: string;
    now: Date;
    /** a file of this revision of the order (ADR 0044); null for the order's own files */
    revisionId?: number | null;
  }): Promise<StoredOrderFile | null> => {
    const [row] = await db.query<FileRow>(
      `INSERT INTO order_files (order_id, customer_id, source, uploaded_by, name, type_name, size_bytes, storage_key, created_at, revision_id)
       SELECT o.id, o.customer_id, $3, $4, $5, $6, $7, $8, $9, $10::int FROM orders o WHERE o.id = $1 AND o.customer_id = $2
         AND ($10::int IS NULL OR EXISTS (SELECT 1 FROM revisions r WHERE r.id = $10::int AND r.order_id = o.id AND r.customer_id = o.customer_id))
       RETURNING id, order_id, source, name, type_name, size_bytes, storage_key`,
      [
        file.orderId,
        file.customerId,
        file.source,
        file.uploadedBy,
        file.name,
        file.typeName,
        file.size,
        file.storageKey,
        file.now,
        file.revisionId ?? null,
      ],
    );
    // No row: the order is not this customer's (or is gone); the caller answers 404.
    return row ? toFile(row) : null;
  },

  /**
   * ADR 0073: the customer's upload quota, locked until the caller's transaction ends (an advisory lock
   * keyed by the customer), so the uploads of every path that count against it pass one at a time.
   */
  lockUploadQuota: async ({ customerId }: { customerId: number }): Promise<void> => {
    await db.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [UPLOAD_QUOTA_LOCK, customerId]);
  },

  /** Bytes of the files the customer uploaded (writer deliveries do not count against the quota). */
  customerStoredBytes: async ({ customerId }: { customerId: number }): Promise<number> => {
    const [row] = await db.query<{ bytes: string }>(CUSTOMER_STORED_BYTES, [customerId]);
    return Number(row?.bytes ?? 0);
  },

  /** Of the given storage keys, those some file row still points to (the orphan sweep keeps them). */
  knownStorageKeys: async (keys: readonly string[]): Promise<Set<string>> => {
    if (keys.length === 0) return new Set();
    // ADR 0048: chat attachments live in the same storage.
    const rows = await db.query<{ storage_key: string }>(
      'SELECT storage_key FROM order_files WHERE storage_key = ANY($1::text[]) UNION SELECT storage_key FROM message_files WHERE storage_key = ANY($1::text[])',
      [[...keys]],
    );
    return new Set(rows.map((r) => r.storage_key));
  },

  listForOrder: async ({
    customerId,
    orderId,
    source,
  }: {
    customerId: number;
    orderId: number;
    source: FileSource;
  }): Promise<StoredOrderFile[]> =>
    (
      await db.query<FileRow>(
        `SELECT ${COLUMNS} FROM order_files f WHERE f.customer_id = $1 AND f.order_id = $2 AND f.source = $3 AND f.revision_id IS NULL ORDER BY f.id`,
        [customerId, orderId, source],
      )
    ).map(toFile),

  listUploadedBy: async ({ customerId }: { customerId: number }): Promise<StoredOrderFile[]> =>
    (
      await db.query<FileRow>(
        `SELECT ${COLUMNS} FROM order_files f WHERE f.customer_id = $1 AND f.source = 'customer' ORDER BY f.id DESC`,
        [customerId],
      )
    ).map(toFile),

  /** The files of one of the customer's revisions (ADR 0044), oldest first. */
  listForRevision: async ({
    customerId,
    revisionId,
    source,
  }: {
    customerId: number;
    revisionId: number;
    source: FileSource;
  }): Promise<StoredOrderFile[]> =>
    (
      await db.query<FileRow>(
        `SELECT ${COLUMNS} FROM order_files f WHERE f.customer_id = $1 AND f.revision_id = $2 AND f.source = $3 ORDER BY f.id`,
        [customerId, revisionId, source],
      )
    ).map(toFile),
  latest: async ({
    customerId,
    orderId,
    source,
  }: {
    customerId: number;
    orderId: number;
    source: FileSource;
  }): Promise<StoredOrderFile | null> => {
    const [row] = await db.query<FileRow>(
      `SELECT ${COLUMNS} FROM order_files f WHERE f.customer_id = $1 AND f.order_id = $2 AND f.source = $3 AND f.revision_id IS NULL ORDER BY f.id DESC LIMIT 1`,
      [customerId, orderId, source],
    );
    return row ? toFile(row) : null;
  },

  /** A file of one of the customer's orders, with that order's status. */
  find: async ({
    customerId,
    fileId,
  }: {
    customerId: number;
    fileId: number;
  }): Promise<(StoredOrderFile & { orderStatus: number }) | null> => {
    const [row] = await db.query<FileRow & { status_id: number }>(
      `SELECT ${COLUMNS}, o.status_id FROM order_files f JOIN orders o ON o.id = f.order_id AND o.customer_id = f.customer_id
       WHERE f.id = $1 AND f.customer_id = $2`,
      [fileId, customerId],
    );
    return row ? { ...toFile(row), orderStatus: row.status_id } : null;
  },

  /** ADR 0071: staff's read of an order's files (no customer filter: the staff module checked who asks), oldest first. */
  listForStaff: async ({ orderId }: { orderId: number }): Promise<StoredOrderFile[]> =>
    (await db.query<FileRow>(`SELECT ${COLUMNS} FROM order_files f WHERE f.order_id = $1 ORDER BY f.id LIMIT 500`, [orderId])).map(toFile),

  /** ADR 0071: one file of the order, for staff. */
  findForStaff: async ({ orderId, fileId }: { orderId: number; fileId: number }): Promise<StoredOrderFile | null> => {
    const [row] = await db.query<FileRow>(`SELECT ${COLUMNS} FROM order_files f WHERE f.id = $1 AND f.order_id = $2`, [fileId, orderId]);
    return row ? toFile(row) : null;
  },

  /**
   * Removes a customer-uploaded file while its order is in one of `statuses` and no delivery carries it
   * (ADR 0096); the storage key, or null.
   */
  deleteUploaded: async ({
    customerId,
    fileId,
    statuses,
  }: {
    customerId: number;
    fileId: number;
    statuses: readonly number[];
  }): Promise<string | null> => {
    const [row] = await db.query<{ storage_key: string }>(
      `DELETE FROM order_files f USING orders o
       WHERE f.id = $1 AND f.customer_id = $2 AND f.source = 'customer'
         AND o.id = f.order_id AND o.customer_id = f.customer_id AND o.status_id = ANY($3::int[])
         AND NOT EXISTS (SELECT 1 FROM order_delivery_files d WHERE d.file_id = f.id)
       RETURNING f.storage_key`,
      [fileId, customerId, [...statuses]],
    );
    return row?.storage_key ?? null;
  },
});
