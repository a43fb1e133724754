import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../lib/clock';
import { pgliteDb, pgliteOptions, type Db } from './client';
import { migrate } from './migrate';
import { seedDatabase } from './seed';
import { DEMO_REFERRED } from './seed/loyalty';

/** A brand-new embedded database: nothing applied yet (the shared test template is already migrated). */
let db: Db;
beforeAll(async () => {
  db = pgliteDb(new PGlite(pgliteOptions));
});
afterAll(async () => {
  await db.close();
});

const count = async (table: string): Promise<number> =>
  (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]?.n ?? -1;

describe('migrate', () => {
  it('applies every migration once on a new database, and nothing on the second run', async () => {
    const first = await migrate(db);
    expect(first).toContain('0001_init.sql');
    expect(first).toEqual([...first].sort());
    expect(await migrate(db)).toEqual([]);
    const recorded = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(recorded.map((r) => r.name)).toEqual(first);
    // A new embedded database takes seconds to build; on a busy 2-core machine, more than the default.
  }, 60_000);

  it('on a restart reads schema_migrations once and runs nothing else (no transaction, no lock) (ADR 0058)', async () => {
    const statements: string[] = [];
    let transactions = 0;
    const watched: Db = {
      ...db,
      query: (sql, params) => {
        statements.push(sql);
        return db.query(sql, params);
      },
      transaction: (fn) => {
        transactions += 1;
        return db.transaction(fn);
      },
    };
    expect(await migrate(watched)).toEqual([]);
    expect(transactions).toBe(0);
    expect(statements).toHaveLength(2);
    expect(statements.join(' ')).not.toMatch(/advisory/);
  });

  it('applies a migration missing from schema_migrations (the locked path runs when the read finds a gap)', async () => {
    // Forget one and undo it: it comes back through the locked path, and only it.
    await db.query(`DELETE FROM schema_migrations WHERE name = '0013_payment_attention.sql'`);
    await db.query(
      `ALTER TABLE payments DROP CONSTRAINT payments_support_resolved_flagged, DROP COLUMN support_reason, DROP COLUMN support_resolved_at,
         DROP COLUMN support_resolved_by, DROP COLUMN support_outcome`,
    );
    expect(await migrate(db)).toEqual(['0013_payment_attention.sql']);
    expect(await migrate(db)).toEqual([]);
  });
});

describe('seedDatabase on a new database', () => {
  it('without demo data: base data only, no accounts and no orders', async () => {
    await seedDatabase(db, { demo: false, clock: systemClock });
    expect(await count('site_settings')).toBe(1);
    expect(await count('catalogue_items')).toBeGreaterThan(100);
    expect(await count('urgencies')).toBe(9);
    expect(await count('price_rates')).toBeGreaterThan(500);
    expect(await count('users')).toBe(0);
    expect(await count('orders')).toBe(0);
    expect(await count('discount_codes')).toBe(0);
  });

  it('with demo data later: the demo accounts, codes and orders join the base data', async () => {
    await seedDatabase(db, { demo: true, clock: systemClock });
    // The four demo accounts (ADR 0090: the admin too) and the demo customer's referred friends (ADR 0051).
    expect(await count('users')).toBe(4 + DEMO_REFERRED.length);
    expect(await count('discount_codes')).toBe(2);
    expect(await count('orders')).toBeGreaterThanOrEqual(10);
    expect(await count('referrals')).toBe(DEMO_REFERRED.length);
    expect(await count('loyalty_points_ledger')).toBeGreaterThan(0);
  });
});
