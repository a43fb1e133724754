import type { Clock } from '../lib/clock';
import type { Db, Queryable } from './client';
import { catalogueRows, URGENCIES } from './seed/catalogues';
import { seedDemo } from './seed/demo';
import { MAX_AMOUNT_DISCOUNT_CENTS, PRICED_CATEGORIES, priceExtraRows, priceRateRows } from './seed/prices';
import { SEEDED_SITE_ID, SITE_SETTINGS } from './seed/settings';

// Any constant: serialises seeding when several instances start at once on one PostgreSQL server.
const SEED_LOCK_KEY = 72_201_302;

/** Inserts rows that are missing; a row already there (perhaps edited by an operator) is left alone. */
const insertMissing = async (
  q: Queryable,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
): Promise<void> => {
  if (rows.length === 0) return;
  const params: unknown[] = [];
  const tuples = rows.map((row) => `(${row.map((value) => `$${params.push(value)}`).join(', ')})`);
  await q.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT DO NOTHING`, params);
};

const seedBase = async (q: Queryable): Promise<void> => {
  await insertMissing(q, 'site_settings', ['id_site', 'settings'], [[SEEDED_SITE_ID, JSON.stringify(SITE_SETTINGS)]]);
  await insertMissing(
    q,
    'catalogue_items',
    ['kind', 'site_category', 'id', 'name', 'position'],
    catalogueRows().map((r) => [r.kind, r.siteCategory, r.id, r.name, r.position]),
  );
  await insertMissing(
    q,
    'urgencies',
    ['id_site', 'id', 'hours', 'name'],
    URGENCIES.map((u) => [SEEDED_SITE_ID, u.id, u.hours, u.name]),
  );
  await insertMissing(
    q,
    'price_rates',
    ['site_category', 'work_type_id', 'level_id', 'urgency_hours', 'cents_per_page'],
    priceRateRows().map((r) => [r.siteCategory, r.workTypeId, r.levelId, r.urgencyHours, r.centsPerPage]),
  );
  await insertMissing(
    q,
    'price_extras',
    ['site_category', 'key', 'kind', 'value'],
    priceExtraRows().map((e) => [e.siteCategory, e.key, e.kind, e.value]),
  );
  await insertMissing(
    q,
    'price_settings',
    ['site_category', 'max_amount_discount_cents'],
    PRICED_CATEGORIES.map((category) => [category, MAX_AMOUNT_DISCOUNT_CENTS]),
  );
};

/**
 * Seeds what is missing, on every start (ADR 0011): the site settings, catalogues, urgencies and price
 * tables always; the demo accounts, discount codes and orders when `demo` is on (CONTRACT "Demo data").
 * Idempotent: it never updates a row, so an operator's edits survive restarts.
 */
export const seedDatabase = async (db: Db, opts: { demo: boolean; clock: Clock }): Promise<void> => {
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    await seedBase(tx);
    if (opts.demo) await seedDemo(tx, opts.clock.now());
  });
};
