import { randomBytes } from 'node:crypto';
import { CUSTOMER_STATUS, ORDER_STATUS, ROLE, SITE_CATEGORY } from '@app/domain';
import type { Queryable } from '../db/client';
import { createAccessTokens } from '../lib/jwt';
import type { TestApp } from './build-test-app';

/** A confirmed customer inserted straight into the test database, with a valid access token. */
export const insertCustomer = async (t: TestApp, email: string): Promise<{ id: number; token: string }> => {
  const [row] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES ($2, $1, 'x', $3) RETURNING id`,
    [email, ROLE.customer, CUSTOMER_STATUS.active.id],
  );
  if (!row) throw new Error(`could not insert ${email}`);
  const token = await createAccessTokens(t.config.jwtSecret ?? '', t.clock).sign({ userId: row.id, role: ROLE.customer });
  return { id: row.id, token };
};

/** What a test may set on an order it stores; everything else is a plain unpaid two-page essay. */
export interface TestOrder {
  customerId: number;
  /** random (22 URL-safe characters) unless given */
  uid?: string;
  status?: number;
  title?: string;
  /** empty unless given */
  description?: string;
  siteCategory?: number;
  workTypeId?: number;
  levelId?: number;
  pages?: number;
  urgencyHours?: number;
  writerId?: number | null;
  hidden?: boolean;
  /** the database's now() unless given */
  createdAt?: Date | string;
  /** createdAt (or now) plus 10 days unless given */
  deadline?: Date | string;
  completedAt?: Date | null;
  basicPriceCents?: number;
  finalPriceCents?: number;
}

/**
 * One order inserted straight into the table (ADR 0055): the server tests' one factory instead of a raw
 * INSERT in each test file. Defaults: unpaid, site category 1, work type 1, level 2, 2 pages, 240 hours,
 * 24.00 (2400 cents), no writer, visible. No status history entry: tests that need one write it.
 */
export const insertOrder = async (db: Queryable, o: TestOrder): Promise<{ id: number; uid: string }> => {
  const uid = o.uid ?? randomBytes(16).toString('base64url');
  const [row] = await db.query<{ id: number; uid: string }>(
    `INSERT INTO orders (uid, customer_id, site_category, work_type_id, level_id, title, pages, urgency_hours, status_id, writer_id,
       hidden, created_at, deadline, completed_at, basic_price_cents, final_price_cents, description)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, COALESCE($12::timestamptz, now()),
       COALESCE($13::timestamptz, COALESCE($12::timestamptz, now()) + interval '10 days'), $14, $15, $16, $17)
     RETURNING id, uid`,
    [
      uid,
      o.customerId,
      o.siteCategory ?? SITE_CATEGORY.essay,
      o.workTypeId ?? 1,
      o.levelId ?? 2,
      o.title ?? 'Test essay',
      o.pages ?? 2,
      o.urgencyHours ?? 240,
      o.status ?? ORDER_STATUS.unpaid,
      o.writerId ?? null,
      o.hidden ?? false,
      o.createdAt ?? null,
      o.deadline ?? null,
      o.completedAt ?? null,
      o.basicPriceCents ?? 2400,
      o.finalPriceCents ?? 2400,
      o.description ?? '',
    ],
  );
  if (!row) throw new Error('the test order was not stored');
  return { id: Number(row.id), uid: String(row.uid) };
};

/**
 * ADR 0084: a writer file on the order and, unless `fileOnly`, a delivery carrying it (awaiting review,
 * its clock ending at `reviewBy`, 3 days after `deliveredAt` unless given).
 */
export const insertDelivery = async (
  db: Queryable,
  d: { orderId: number; customerId: number; writerId: number; deliveredAt?: Date; reviewBy?: Date; fileOnly?: boolean },
): Promise<{ fileId: number; deliveryId: number | null }> => {
  const [file] = await db.query<{ id: number }>(
    `INSERT INTO order_files (order_id, customer_id, source, uploaded_by, name, type_name, size_bytes, storage_key)
     VALUES ($1, $2, 'writer', $3, 'paper.pdf', 'pdf', 10, $4) RETURNING id`,
    [d.orderId, d.customerId, d.writerId, `test/${randomBytes(8).toString('hex')}`],
  );
  if (!file) throw new Error('the writer file was not stored');
  if (d.fileOnly) return { fileId: Number(file.id), deliveryId: null };
  const deliveredAt = d.deliveredAt ?? new Date();
  const reviewBy = d.reviewBy ?? new Date(deliveredAt.getTime() + 3 * 24 * 3_600_000);
  const [delivery] = await db.query<{ id: number }>(
    `INSERT INTO order_deliveries (order_id, delivered_by, delivered_by_role, message, delivered_at, review_by)
     VALUES ($1, $2, $3, 'Here it is', $4, $5) RETURNING id`,
    [d.orderId, d.writerId, ROLE.writer, deliveredAt, reviewBy],
  );
  if (!delivery) throw new Error('the delivery was not stored');
  await db.query('INSERT INTO order_delivery_files (file_id, delivery_id) VALUES ($1, $2)', [file.id, delivery.id]);
  return { fileId: Number(file.id), deliveryId: Number(delivery.id) };
};
