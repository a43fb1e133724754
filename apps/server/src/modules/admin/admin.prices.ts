import {
  ADMIN_MESSAGE,
  adminPriceProblems,
  amountToCents,
  AUDIT_ACTION,
  DomainError,
  ERROR_CODE,
  type AdminPrices,
  type AdminPricesBody,
  type Calcs,
} from '@app/domain';
import type { Db } from '../../db/client';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';
import { recordAudit } from '../audit';
import { priceTableWrites, type CatalogueReader } from '../catalogue';

/** What the admin's price tables read and forget (the catalogue's reader, the caches of the quotes and the first paint). */
export interface AdminPricesDeps {
  db: Db;
  clock: Clock;
  catalogue: Pick<CatalogueReader, 'calcs' | 'siteUrgencies' | 'offeredCategories'>;
  /** ADR 0090: after a publish, the next quote and the next first paint read the new tables. */
  forgetCaches: () => void;
}

/** The audit log's copy of a category's tables: the rows as `…/calcs` serves them. */
const auditOf = (c: Calcs) => ({ siteCategory: c.siteCategory, rates: c.rates, extras: c.extras, maxAmountDiscount: c.maxAmountDiscount });

/**
 * ADR 0090: the price tables an admin edits: the rows `…/calcs` serves, per offered category. A publish
 * replaces one category's rows in one transaction with its audit entry (before and after). New quotes
 * only: an order keeps the price it stored (`orders.final_price_cents`); nothing here touches orders.
 */
export const createAdminPrices = ({ db, clock, catalogue, forgetCaches }: AdminPricesDeps) => ({
  get: async (): Promise<AdminPrices> => {
    const categories = await catalogue.offeredCategories();
    return {
      categories: await Promise.all(categories.map((category) => catalogue.calcs({ category: String(category) }))),
      urgencies: await catalogue.siteUrgencies(),
    };
  },

  /** 422 naming each row that is refused (a zero or negative price, an unknown urgency, a row twice); 404 for a category not offered. */
  put: async ({ actor, body }: { actor: Actor; body: AdminPricesBody }): Promise<Calcs> => {
    const before = await catalogue.calcs({ category: String(body.siteCategory) });
    const urgencies = (await catalogue.siteUrgencies()).map((u) => u.hours);
    const problems = adminPriceProblems(body, urgencies);
    if (Object.keys(problems).length > 0) {
      throw new DomainError(ERROR_CODE.validation, Object.values(problems)[0]?.[0] ?? ADMIN_MESSAGE.priceNotPositive, problems);
    }
    await db.transaction(async (tx) => {
      await priceTableWrites(tx).replaceCategory({
        siteCategory: body.siteCategory,
        rates: body.rates.map((r) => ({
          workTypeId: r.idWorkType,
          levelId: r.idLevel,
          urgencyHours: r.urgency,
          centsPerPage: amountToCents(r.pricePerPage),
        })),
        extras: body.extras.map((e) => ({
          key: e.key,
          kind: e.kind,
          value: e.kind === 'flat' ? amountToCents(e.value) : Math.round(e.value),
        })),
        maxAmountDiscountCents: amountToCents(body.maxAmountDiscount),
      });
      await recordAudit(tx, {
        actor,
        action: AUDIT_ACTION.prices,
        before: auditOf(before),
        after: auditOf({ ...body, currency: 'USD' }),
        at: clock.now(),
      });
    });
    forgetCaches();
    return catalogue.calcs({ category: String(body.siteCategory) });
  },
});
export type AdminPricesService = ReturnType<typeof createAdminPrices>;
