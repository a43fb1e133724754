import type { CatalogueItem, Urgency } from '@app/domain';
import type { Db } from '../../db/client';
import type { CatalogueKind } from '@app/domain/catalogue';

export interface StoredSite {
  idSite: number;
  /** site_settings.settings as stored; the service validates it. */
  settings: unknown;
}

export interface PriceTablesCents {
  rates: { workTypeId: number; levelId: number; urgencyHours: number; centsPerPage: number }[];
  /** percent: whole percent; flat: cents */
  extras: { key: string; kind: string; value: number }[];
  maxAmountDiscountCents: number;
}

/** Catalogues, urgencies, site settings and price tables: public data, no customer in any query. */
export const createCatalogueRepo = (db: Db) => ({
  /** The site this deployment serves: one row today (idSite 1), the lowest id if an operator adds more. */
  findSite: async (): Promise<StoredSite | null> => {
    const [row] = await db.query<{ id_site: number; settings: unknown }>(
      'SELECT id_site, settings FROM site_settings ORDER BY id_site LIMIT 1',
    );
    return row ? { idSite: row.id_site, settings: row.settings } : null;
  },

  siteExists: async (idSite: number): Promise<boolean> =>
    (await db.query('SELECT 1 FROM site_settings WHERE id_site = $1', [idSite])).length > 0,

  /** A category's own rows plus the rows shared by every category (site_category 0). */
  listItems: async (kind: CatalogueKind, siteCategory: number): Promise<CatalogueItem[]> =>
    db.query<CatalogueItem>(
      `SELECT id, name FROM catalogue_items
       WHERE kind = $1 AND site_category IN (0, $2)
       ORDER BY position, site_category, id`,
      [kind, siteCategory],
    ),

  /** Longest deadline first, the order the wizard lists them in. */
  listUrgencies: async (idSite: number): Promise<Urgency[]> =>
    db.query<Urgency>('SELECT id, hours, name FROM urgencies WHERE id_site = $1 ORDER BY hours DESC, id', [idSite]),

  priceTables: async (siteCategory: number): Promise<PriceTablesCents> => {
    const rates = await db.query<{ work_type_id: number; level_id: number; urgency_hours: number; cents_per_page: number }>(
      `SELECT work_type_id, level_id, urgency_hours, cents_per_page FROM price_rates
       WHERE site_category = $1
       ORDER BY work_type_id, level_id, urgency_hours DESC`,
      [siteCategory],
    );
    const extras = await db.query<{ key: string; kind: string; value: number }>(
      'SELECT key, kind, value FROM price_extras WHERE site_category = $1 ORDER BY key',
      [siteCategory],
    );
    const [settings] = await db.query<{ max_amount_discount_cents: number }>(
      'SELECT max_amount_discount_cents FROM price_settings WHERE site_category = $1',
      [siteCategory],
    );
    return {
      rates: rates.map((r) => ({
        workTypeId: r.work_type_id,
        levelId: r.level_id,
        urgencyHours: r.urgency_hours,
        centsPerPage: r.cents_per_page,
      })),
      extras,
      maxAmountDiscountCents: settings?.max_amount_discount_cents ?? 0,
    };
  },
});
export type CatalogueRepo = ReturnType<typeof createCatalogueRepo>;
