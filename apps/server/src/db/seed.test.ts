import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORDER_STATUS, ROLE } from '@app/domain';
import { verifyPassword } from '../lib/password';
import { createTestClock, createTestDb } from '../testing/build-test-app';
import type { Db } from './client';
import { createChatRepo } from '../modules/chat/chat.repo';
import { seedDatabase } from './seed';

const TABLES = [
  'site_settings',
  'catalogue_items',
  'urgencies',
  'price_rates',
  'price_extras',
  'price_settings',
  'discount_codes',
  'users',
  'orders',
  'order_status_history',
  'messages',
  'chat_read_pointers',
] as const;

let db: Db;
let drop: () => Promise<void>;
const clock = createTestClock(new Date('2026-03-01T12:00:00Z'));

beforeAll(async () => {
  ({ db, drop } = await createTestDb());
});
afterAll(async () => {
  await drop();
});

const counts = async (): Promise<Record<string, number>> => {
  const result: Record<string, number> = {};
  for (const table of TABLES) result[table] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n ?? -1;
  return result;
};

describe('demo data (CONTRACT "Demo data")', () => {
  it('has the three accounts with their documented passwords and roles, active and confirmed', async () => {
    const users = await db.query<{
      email: string;
      role: number;
      status_id: number;
      email_confirmed_at: Date | null;
      password_hash: string;
    }>(
      `SELECT email, role, status_id, email_confirmed_at, password_hash FROM users
       WHERE email IN ('demo@example.com', 'writer@example.com', 'support@example.com') ORDER BY role`,
    );
    expect(users.map((u) => [u.email, u.role])).toEqual([
      ['demo@example.com', ROLE.customer],
      ['writer@example.com', ROLE.writer],
      ['support@example.com', ROLE.support],
    ]);
    const passwords = ['demo12345', 'writer12345', 'support12345'];
    for (const [i, user] of users.entries()) {
      expect(user.status_id).toBe(1);
      expect(user.email_confirmed_at).not.toBeNull();
      expect(user.password_hash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(user.password_hash, passwords[i] ?? '')).toBe(true);
    }
  });

  it('has WELCOME10 (10 %) and TOPWRITER20 (20 %, top writer)', async () => {
    expect(await db.query('SELECT code, percent, is_top_writer_discount, active FROM discount_codes ORDER BY code')).toEqual([
      { code: 'TOPWRITER20', percent: 20, is_top_writer_discount: true, active: true },
      { code: 'WELCOME10', percent: 10, is_top_writer_discount: false, active: true },
    ]);
  });

  it('gives the demo customer orders in every dashboard status, one hidden, each consistent with its price and history', async () => {
    const orders = await db.query<{
      id: number;
      uid: string;
      status_id: number;
      hidden: boolean;
      writer_id: number | null;
      basic_price_cents: number;
      final_price_cents: number;
      discount_cents: number;
      price_breakdown: Record<string, number>;
      created_at: Date;
      deadline: Date;
      completed_at: Date | null;
    }>(`SELECT o.* FROM orders o JOIN users u ON u.id = o.customer_id WHERE u.email = 'demo@example.com' ORDER BY o.id`);
    expect(orders.length).toBeGreaterThanOrEqual(10);
    const statuses = new Set(orders.map((o) => o.status_id));
    for (const status of [1, 2, 3, 5, 7, 8, 9, 11]) expect(statuses).toContain(status);
    expect(orders.filter((o) => o.hidden)).toHaveLength(1);

    for (const order of orders) {
      expect(order.uid).toMatch(/^[A-Za-z0-9_-]{16,}$/);
      const p = order.price_breakdown;
      const extras =
        (p.pricePremiumWriter ?? 0) +
        (p.pricePreferedWriter ?? 0) +
        (p.priceExtraQualityCheck ?? 0) +
        (p.priceQuality ?? 0) +
        (p.priceOnePageSummary ?? 0);
      expect(p.basicPrice).toBe(order.basic_price_cents);
      expect(p.finalPrice).toBe(order.final_price_cents);
      expect(p.priceDiscount).toBe(order.discount_cents);
      expect(order.final_price_cents).toBe(order.basic_price_cents + extras - order.discount_cents);
      expect(Number.isInteger(order.final_price_cents)).toBe(true);
      expect(order.deadline.getTime()).toBeGreaterThan(order.created_at.getTime());
      expect(order.completed_at !== null).toBe(order.status_id === ORDER_STATUS.completed);
      if (order.status_id !== ORDER_STATUS.unpaid && order.status_id !== ORDER_STATUS.canceled) expect(order.writer_id).not.toBeNull();

      const history = await db.query<{ status_id: number; created_at: Date }>(
        'SELECT status_id, created_at FROM order_status_history WHERE order_id = $1 ORDER BY id',
        [order.id],
      );
      expect(history.at(-1)?.status_id).toBe(order.status_id);
      const times = history.map((h) => h.created_at.getTime());
      expect(times).toEqual([...times].sort((a, b) => a - b));
      if (order.status_id === ORDER_STATUS.completed) expect(history.map((h) => h.status_id)).toEqual([1, 2, 3, 5]);
    }
  });
});

describe('seedDatabase is safe on every start', () => {
  it('finds everything in place in one read and opens no transaction (a restart, ADR 0058)', async () => {
    let reads = 0;
    let transactions = 0;
    const watched: Db = {
      ...db,
      query: (sql, params) => {
        reads += 1;
        return db.query(sql, params);
      },
      transaction: (fn) => {
        transactions += 1;
        return db.transaction(fn);
      },
    };
    await seedDatabase(watched, { demo: true, clock });
    expect({ reads, transactions }).toEqual({ reads: 1, transactions: 0 });
    // One seeded price gone: the read sees it, and the locked inserts put it back.
    await db.query('DELETE FROM price_rates WHERE site_category = 1 AND work_type_id = 1 AND level_id = 2 AND urgency_hours = 240');
    await seedDatabase(watched, { demo: true, clock });
    expect(transactions).toBe(1);
    const [rate] = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM price_rates WHERE site_category = 1 AND work_type_id = 1 AND level_id = 2 AND urgency_hours = 240',
    );
    expect(rate?.n).toBe(1);
  });

  it('changes no count when run again, twice, with demo data on', async () => {
    const before = await counts();
    await seedDatabase(db, { demo: true, clock });
    await seedDatabase(db, { demo: true, clock });
    expect(await counts()).toEqual(before);
  });

  it("never overwrites an operator's edits, and restores only what is missing", async () => {
    await db.query(`UPDATE catalogue_items SET name = 'Essay (any kind)' WHERE kind = 'assignment' AND site_category = 1 AND id = 1`);
    await db.query(
      'UPDATE price_rates SET cents_per_page = 999 WHERE site_category = 1 AND work_type_id = 1 AND level_id = 2 AND urgency_hours = 240',
    );
    await db.query(`UPDATE site_settings SET settings = jsonb_set(settings, '{multipayment}', 'false') WHERE id_site = 1`);
    await db.query(`UPDATE users SET first_name = 'Alexandra' WHERE email = 'demo@example.com'`);
    await db.query(`DELETE FROM urgencies WHERE id_site = 1 AND id = 6`);

    await seedDatabase(db, { demo: true, clock });

    const [assignment] = await db.query<{ name: string }>(
      `SELECT name FROM catalogue_items WHERE kind = 'assignment' AND site_category = 1 AND id = 1`,
    );
    expect(assignment?.name).toBe('Essay (any kind)');
    const [rate] = await db.query<{ cents_per_page: number }>(
      'SELECT cents_per_page FROM price_rates WHERE site_category = 1 AND work_type_id = 1 AND level_id = 2 AND urgency_hours = 240',
    );
    expect(rate?.cents_per_page).toBe(999);
    const [site] = await db.query<{ settings: { multipayment: boolean } }>('SELECT settings FROM site_settings WHERE id_site = 1');
    expect(site?.settings.multipayment).toBe(false);
    const [demo] = await db.query<{ first_name: string }>(`SELECT first_name FROM users WHERE email = 'demo@example.com'`);
    expect(demo?.first_name).toBe('Alexandra');
    const [urgency] = await db.query<{ hours: number }>('SELECT hours FROM urgencies WHERE id_site = 1 AND id = 6');
    expect(urgency?.hours).toBe(12);
  });

  it('does not bring back demo orders the operator deleted while the demo customer exists', async () => {
    await db.query(`DELETE FROM orders WHERE title LIKE 'Was the Industrial Revolution%'`);
    const before = await counts();
    await seedDatabase(db, { demo: true, clock });
    expect(await counts()).toEqual(before);
  });

  it('gives a completed, visible demo order one revision that went requested → in progress → verifying → completed (ADR 0044)', async () => {
    const revisions = await db.query<{
      id: number;
      status_id: number;
      order_status: number;
      hidden: boolean;
      deadline: Date;
      created_at: Date;
      completed_at: Date;
    }>(
      `SELECT r.id, r.status_id, o.status_id AS order_status, o.hidden, r.deadline, r.created_at, o.completed_at
       FROM revisions r JOIN orders o ON o.id = r.order_id JOIN users u ON u.id = r.customer_id WHERE u.email = 'demo@example.com'`,
    );
    expect(revisions).toHaveLength(1);
    const [revision] = revisions;
    expect(revision).toMatchObject({ status_id: 5, order_status: ORDER_STATUS.completed, hidden: false });
    expect(revision?.created_at.getTime()).toBeGreaterThan(revision?.completed_at.getTime() ?? Infinity);
    const history = await db.query<{ status_id: number }>(
      'SELECT status_id FROM revision_status_history WHERE revision_id = $1 ORDER BY id',
      [revision?.id],
    );
    expect(history.map((h) => h.status_id)).toEqual([1, 2, 12, 5]);
  });

  it('gives an order in progress a conversation in both chats with one writer message the customer has not seen (ADR 0047)', async () => {
    const [customer] = await db.query<{ id: number }>("SELECT id FROM users WHERE email = 'demo@example.com'");
    const summary = await createChatRepo(db).customerUnreadSummary({ customerId: customer?.id ?? 0 });
    expect(summary).toHaveLength(1);
    expect(summary[0]).toMatchObject({ writer: 1, support: 0 });
    const messages = await db.query<{ chat: string; sequence: number; order_status: number }>(
      'SELECT m.chat, m.sequence, o.status_id AS order_status FROM messages m JOIN orders o ON o.id = m.order_id WHERE m.order_id = $1 ORDER BY m.sequence',
      [summary[0]?.orderId],
    );
    expect(messages.map((m) => m.sequence)).toEqual([1, 2, 3, 4]);
    expect(new Set(messages.map((m) => m.chat))).toEqual(new Set(['writer', 'support']));
    expect(messages[0]?.order_status).toBe(ORDER_STATUS.inProgress);
  });
});
