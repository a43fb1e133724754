import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  calcsSchema,
  catalogueListSchema,
  levelListForCategory,
  SITE_CATEGORY,
  SITE_SETTINGS_PATH,
  siteSettingsSchema,
  urgencySchema,
  type PaymentSystem,
} from '@app/domain';
import type { AppContext } from '../../context';
import type { Clock } from '../../lib/clock';
import { createCatalogueRepo } from './catalogue.repo';
import { CATALOGUE_MAX_AGE_S, catalogueRoutes } from './catalogue.routes';
import { createCatalogueService, type CatalogueService, type RequestOrigin } from './catalogue.service';

export type { CatalogueService };
/** ADR 0090: the admin's writes to the price tables, in the caller's transaction. */
export { priceTableWrites, type PriceTableRows } from './catalogue.writes.repo';

/**
 * The catalogue's one service and what other modules read through it, built once by the composition
 * root (services.ts). `usablePayments` (the payments module's policy) filters the settings' payment rules.
 */
export const createCatalogue = (
  ctx: Pick<AppContext, 'db' | 'config'>,
  { usablePayments }: { usablePayments: readonly PaymentSystem[] },
) => {
  const repo = createCatalogueRepo(ctx.db);
  const service = createCatalogueService({
    repo,
    chatBaseUrl: ctx.config.chatBaseUrl,
    publicOrigin: ctx.config.publicOrigin,
    usablePayments,
  });
  /**
   * What other modules read from the catalogues (pricing, orders): the same service the routes use, so
   * a category is offered, or answered 404, the same way everywhere.
   */
  const reader = {
    /** The price tables of an offered category (404 DomainError otherwise). */
    calcs: service.calcs,
    /** Work types, assignments, subjects, paper formats of an offered category (404 otherwise). */
    categoryList: service.categoryList,
    /** Lists shared by every category (resume services, level lists). */
    list: service.list,
    /** ADR 0090: the categories the site offers (settings.siteCategories). */
    offeredCategories: async (): Promise<number[]> => {
      const site = await repo.findSite();
      const categories = (site?.settings as { siteCategories?: unknown } | undefined)?.siteCategories;
      return Array.isArray(categories) ? categories.filter((c): c is number => typeof c === 'number') : [];
    },
    /** The urgencies of the site this deployment serves. */
    siteUrgencies: async () => {
      const site = await repo.findSite();
      return site ? repo.listUrgencies(site.idSite) : [];
    },
  };
  return { service, reader };
};
export type Catalogue = ReturnType<typeof createCatalogue>;

/** Site settings, the catalogues of SPEC §7, urgencies and price tables: public, read from the database. */
export const catalogueModule: FastifyPluginAsyncZod<{ catalogue: Catalogue }> = async (app, { catalogue }) => {
  await app.register(catalogueRoutes, { service: catalogue.service });
};

export type CatalogueReader = Catalogue['reader'];
export type { CatalogueKind } from '@app/domain/catalogue';

const URGENCIES = urgencySchema.array();

/**
 * The public answers a page's first paint waits for (ADR 0040), by the API path the web app asks them
 * at: every page needs the site settings; the order wizard also the catalogues, urgencies and price
 * tables of the category it opens on (the site's first; a wizard that opens on another asks for its
 * own). The same service calls as the routes, passed through the same response schemas, so the bytes
 * are the ones the API would send. A list the site does not offer is left out, not an error.
 */
export const createFirstAnswers = ({ catalogue, clock }: { catalogue: Catalogue; clock: Clock }) => {
  const { service } = catalogue;
  const read = async ({ origin, wizard }: { origin: RequestOrigin; wizard: boolean }): Promise<Record<string, unknown>> => {
    const settings = siteSettingsSchema.parse(await service.settings({ origin }));
    const answers: Record<string, unknown> = { [SITE_SETTINGS_PATH]: settings };
    if (!wizard) return answers;
    const category = String(settings.siteCategories[0] ?? SITE_CATEGORY.essay);
    const base = `/api/en/sites/categories/${category}/orders`;
    const levelList = levelListForCategory(Number(category));
    const levelKind = ({ academic_levels: 'academic_level', resume_levels: 'resume_level', thesis_levels: 'thesis_level' } as const)[
      levelList
    ];
    const lists: [string, () => Promise<unknown>][] = [
      [`${base}/work_types`, async () => catalogueListSchema.parse(await service.categoryList({ category, kind: 'work_type' }))],
      [`${base}/assignments`, async () => catalogueListSchema.parse(await service.categoryList({ category, kind: 'assignment' }))],
      [`${base}/subjects`, async () => catalogueListSchema.parse(await service.categoryList({ category, kind: 'subject' }))],
      [`${base}/paper_formats`, async () => catalogueListSchema.parse(await service.categoryList({ category, kind: 'paper_format' }))],
      [`${base}/calcs`, async () => calcsSchema.parse(await service.calcs({ category }))],
      [`/api/en/orders/${levelList}`, async () => catalogueListSchema.parse(await service.list({ kind: levelKind }))],
      [
        `/api/en/sites/${settings.idSite}/orders/urgencies`,
        async () => URGENCIES.parse(await service.urgencies({ idSite: String(settings.idSite) })),
      ],
    ];
    if (Number(category) === SITE_CATEGORY.resume) {
      lists.push(['/api/en/orders/resume_services', async () => catalogueListSchema.parse(await service.list({ kind: 'resume_service' }))]);
    }
    const settled = await Promise.allSettled(lists.map(async ([key, load]) => [key, await load()] as const));
    for (const result of settled) if (result.status === 'fulfilled') answers[result.value[0]] = result.value[1];
    return answers;
  };
  // Kept as long as a shared cache may keep the API's own answers (`Cache-Control: public, max-age=60`):
  // a page is never staler than the API may be, and a page costs its server no queries most of the time.
  const cache = new Map<string, { at: number; answers: Promise<Record<string, unknown>> }>();
  const firstAnswers = (page: { origin: RequestOrigin; wizard: boolean }): Promise<Record<string, unknown>> => {
    const key = `${page.origin.protocol}://${page.origin.host}|${page.wizard ? 'wizard' : 'page'}`;
    const now = clock.now().getTime();
    const hit = cache.get(key);
    if (hit && now - hit.at < CATALOGUE_MAX_AGE_S * 1000) return hit.answers;
    if (cache.size > 100) cache.clear();
    const answers = read(page);
    cache.set(key, { at: now, answers });
    // A failure is not kept: the next page asks again.
    answers.catch(() => cache.delete(key));
    return answers;
  };
  /** ADR 0090: an admin published new prices: the next page reads them (this instance; others within the cache time). */
  return Object.assign(firstAnswers, { forget: () => cache.clear() });
};
export type FirstAnswers = ReturnType<typeof createFirstAnswers>;
