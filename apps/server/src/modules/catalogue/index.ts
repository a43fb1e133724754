import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext, ModuleOptions } from '../../context';
import { createCatalogueRepo } from './catalogue.repo';
import { catalogueRoutes } from './catalogue.routes';
import { createCatalogueService, type CatalogueService } from './catalogue.service';

export type { CatalogueService };

/** Site settings, the catalogues of SPEC §7, urgencies and price tables: public, read from the database. */
export const catalogueModule: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = createCatalogueService({ repo: createCatalogueRepo(ctx.db), chatBaseUrl: ctx.config.chatBaseUrl });
  await app.register(catalogueRoutes, { service });
};

/**
 * What other modules read from the catalogues (pricing, orders): the same service the routes use, so
 * a category is offered, or answered 404, the same way everywhere.
 */
export const createCatalogueReader = (ctx: Pick<AppContext, 'db' | 'config'>) => {
  const repo = createCatalogueRepo(ctx.db);
  const service = createCatalogueService({ repo, chatBaseUrl: ctx.config.chatBaseUrl });
  return {
    /** The price tables of an offered category (404 DomainError otherwise). */
    calcs: service.calcs,
    /** Work types, assignments, subjects, paper formats of an offered category (404 otherwise). */
    categoryList: service.categoryList,
    /** Lists shared by every category (resume services, level lists). */
    list: service.list,
    /** The urgencies of the site this deployment serves. */
    siteUrgencies: async () => {
      const site = await repo.findSite();
      return site ? repo.listUrgencies(site.idSite) : [];
    },
  };
};
export type CatalogueReader = ReturnType<typeof createCatalogueReader>;
export type { CatalogueKind } from '@app/domain/catalogue';
