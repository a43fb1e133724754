import type { Clock } from '../lib/clock';
import type { Db, Queryable } from './client';
import { catalogueRows, URGENCIES } from './seed/catalogues';
import { DEMO_ACCOUNTS, seedDemo } from './seed/demo';
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
 * One read that says whether every seeded row is there already (and the demo customer, when demo data is
 * on): the common case of a restart, which then needs no transaction, no lock and no insert of several
 * thousand parameters (ADR 0058). The keys travel as a few arrays.
 */
const seedIsComplete = async (q: Queryable, demo: boolean): Promise<boolean> => {
  const catalogue = catalogueRows();
  const rates = priceRateRows();
  const extras = priceExtraRows();
  const [row] = await q.query<{ complete: boolean }>(
    `SELECT (SELECT count(*) FROM site_settings WHERE id_site = $1) = 1
        AND (SELECT count(*) FROM catalogue_items c JOIN unnest($2::text[], $3::int[], $4::int[]) k(kind, sc, id)
               ON c.kind = k.kind AND c.site_category = k.sc AND c.id = k.id) = cardinality($2::text[])
        AND (SELECT count(*) FROM urgencies u WHERE u.id_site = $1 AND u.id = ANY($5::int[])) = cardinality($5::int[])
        AND (SELECT count(*) FROM price_rates p JOIN unnest($6::int[], $7::int[], $8::int[], $9::int[]) k(sc, wt, lv, h)
               ON p.site_category = k.sc AND p.work_type_id = k.wt AND p.level_id = k.lv AND p.urgency_hours = k.h) = cardinality($6::int[])
        AND (SELECT count(*) FROM price_extras e JOIN unnest($10::int[], $11::text[]) k(sc, key)
               ON e.site_category = k.sc AND e.key = k.key) = cardinality($10::int[])
        AND (SELECT count(*) FROM price_settings WHERE site_category = ANY($12::int[])) = cardinality($12::int[])
        AND (NOT $13::boolean OR EXISTS (SELECT 1 FROM users WHERE email = $14)) AS complete`,
    [
      SEEDED_SITE_ID,
      catalogue.map((r) => r.kind),
      catalogue.map((r) => r.siteCategory),
      catalogue.map((r) => r.id),
      URGENCIES.map((u) => u.id),
      rates.map((r) => r.siteCategory),
      rates.map((r) => r.workTypeId),
      rates.map((r) => r.levelId),
      rates.map((r) => r.urgencyHours),
      extras.map((e) => e.siteCategory),
      extras.map((e) => e.key),
      [...PRICED_CATEGORIES],
      demo,
      DEMO_ACCOUNTS.customer.email,
    ],
  );
  return row?.complete === true;
};

/**
 * Seeds what is missing, on every start (ADR 0011): the site settings, catalogues, urgencies and price
 * tables always; the demo accounts, discount codes and orders when `demo` is on (CONTRACT "Demo data").
 * Idempotent: it never updates a row, so an operator's edits survive restarts.
 */
export const seedDatabase = async (
  db: Db,
  opts: {
    demo: boolean;
    clock: Clock;
    /** ADR 0085: the Terms and Privacy Policy the demo customer has accepted (the versions current when seeded). */
    legalVersions?: { terms: string; privacy: string };
    /** ADR 0084: stores the demo's delivered files */ storeDemoFile?: (text: string) => Promise<{ key: string; size: number }>;
  },
): Promise<void> => {
  // Nothing missing (a restart): done in one read. Otherwise the locked, idempotent inserts below.
  if (await seedIsComplete(db, opts.demo)) return;
  await db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    await seedBase(tx);
    if (opts.demo) await seedDemo(tx, opts.clock.now(), opts.storeDemoFile);
    if (opts.demo && opts.legalVersions) {
      await tx.query(
        `INSERT INTO terms_acceptances (customer_id, terms_version, privacy_version, context, ip, user_agent, accepted_at)
         SELECT id, $2, $3, 'sign_up', '127.0.0.1', 'demo data', $4 FROM users WHERE email = $1
         ON CONFLICT DO NOTHING`,
        [DEMO_ACCOUNTS.customer.email, opts.legalVersions.terms, opts.legalVersions.privacy, opts.clock.now()],
      );
    }
  });
};
