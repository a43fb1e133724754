import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUS, ROLE } from '@app/domain';
import { insertOrder } from '../../testing/factories';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { createStaffRepo, type StaffQueueFilter } from './staff.repo';

// ADR 0081 (addendum: a staff page's CPU): the plain queue (every order, one status) reads its first pages
// and the counters' total in one statement, newest first, and a deeper page counts first to read from the
// nearer end. A small test database only ever has first pages, so the same walks are made here with the
// one-statement pages turned off (`plainFirstPagesRows: 0`): both paths must give every page the same rows
// in the same order with the same total, which is what the table holds.

let t: TestApp;

const plain: StaffQueueFilter = {
  writerId: null,
  statusId: null,
  unassigned: false,
  dueWithin: null,
  search: null,
  view: null,
  byDeadline: false,
};

beforeAll(async () => {
  t = await buildTestApp();
  const [customer] = await t.db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id) VALUES ($1, 'paths.customer@example.com', 'x', 1) RETURNING id`,
    [ROLE.customer],
  );
  if (!customer) throw new Error('no customer');
  // 31 orders in three statuses, several created in the same instant (ties broken by the id).
  const base = new Date('2026-02-01T12:00:00Z').getTime();
  const statuses = [ORDER_STATUS.unpaid, ORDER_STATUS.paid, ORDER_STATUS.paid, ORDER_STATUS.completed];
  for (let i = 0; i < 31; i++) {
    await insertOrder(t.db, {
      customerId: customer.id,
      status: statuses[i % statuses.length],
      createdAt: new Date(base + Math.floor(i / 4) * 60_000),
    });
  }
});
afterAll(async () => {
  await t.close();
});

const walk = async (repo: ReturnType<typeof createStaffRepo>, statusId: number | null, limit: number) => {
  const pages: { ids: number[]; total: number }[] = [];
  // Every page and one past the last (no rows, the total still told).
  for (let page = 1; ; page++) {
    const { rows, total, totalCapped } = await repo.queue({ ...plain, statusId, limit, offset: (page - 1) * limit });
    expect(totalCapped).toBe(false);
    pages.push({ ids: rows.map((r) => r.id), total });
    if (rows.length === 0) break;
  }
  return pages;
};

describe('the plain queue: one statement for the first pages, the count first for the deeper ones', () => {
  it('gives every page the same rows, order and total both ways, as the table has them', async () => {
    const oneStatement = createStaffRepo(t.db);
    const countFirst = createStaffRepo(t.db, { plainFirstPagesRows: 0 });
    for (const statusId of [null, ORDER_STATUS.paid]) {
      const expected = (
        await t.db.query<{ id: number }>(
          `SELECT id FROM orders WHERE $1::int IS NULL OR status_id = $1 ORDER BY created_at DESC, id DESC`,
          [statusId],
        )
      ).map((r) => Number(r.id));
      expect(expected.length).toBeGreaterThan(15);
      for (const limit of [1, 3, 7, 20, 100]) {
        const a = await walk(oneStatement, statusId, limit);
        const b = await walk(countFirst, statusId, limit);
        expect(a).toEqual(b);
        expect(a.flatMap((p) => p.ids)).toEqual(expected);
        expect(new Set(a.map((p) => p.total))).toEqual(new Set([expected.length]));
      }
    }
  });
});
