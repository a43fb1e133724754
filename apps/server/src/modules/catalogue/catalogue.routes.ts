import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { calcsSchema, catalogueListSchema, SITE_SETTINGS_PATH, siteSettingsSchema, urgencySchema } from '@app/domain';
import type { CatalogueKind } from '@app/domain/catalogue';
import type { CatalogueService } from './catalogue.service';
import { errorResponses } from '../../lib/route-schemas';

const categoryParams = z.object({ category: z.string().max(12) });

/** Public data the wizard reads on every visit: shared caches may keep it for a minute. */
export const CATALOGUE_MAX_AGE_S = 60;
const CACHE_CONTROL = `public, max-age=${CATALOGUE_MAX_AGE_S}`;
/** ADR 0068: settings built from the request's Host (no PUBLIC_ORIGIN) are the asker's alone. */
const PRIVATE_CACHE_CONTROL = `private, max-age=${CATALOGUE_MAX_AGE_S}`;

/** Per-category lists of SPEC §7 / CONTRACT "Paths": path segment → catalogue kind. */
const CATEGORY_LISTS: readonly (readonly [segment: string, kind: CatalogueKind, summary: string])[] = [
  ['work_types', 'work_type', 'Work types of a site category'],
  ['assignments', 'assignment', 'Paper types of a site category'],
  ['subjects', 'subject', 'Subjects of a site category'],
  ['paper_formats', 'paper_format', 'Paper formats (citation styles) of a site category'],
];

/** Lists shared by every category (SPEC §7). */
const SHARED_LISTS: readonly (readonly [segment: string, kind: CatalogueKind, summary: string])[] = [
  ['resume_services', 'resume_service', 'Resume services'],
  ['academic_levels', 'academic_level', 'Academic levels (site categories 1, 2, 5)'],
  ['resume_levels', 'resume_level', 'Resume levels (site category 3)'],
  ['thesis_levels', 'thesis_level', 'Thesis levels (site category 4)'],
];

/** CONTRACT "Errors and access": no token is needed for any of these. */
export const catalogueRoutes: FastifyPluginAsyncZod<{ service: CatalogueService }> = async (app, { service }) => {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 200 && reply.getHeader('cache-control') !== PRIVATE_CACHE_CONTROL)
      reply.header('cache-control', CACHE_CONTROL);
    return payload;
  });

  app.get(
    SITE_SETTINGS_PATH,
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Site settings; the chat URLs follow CHAT_BASE_URL, else PUBLIC_ORIGIN (the request origin only when neither is set)',
        response: { 200: siteSettingsSchema, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      if (service.settingsFollowRequest) reply.header('cache-control', PRIVATE_CACHE_CONTROL);
      return service.settings({ origin: { protocol: request.protocol, host: request.host } });
    },
  );

  for (const [segment, kind, summary] of CATEGORY_LISTS) {
    app.get(
      `/api/en/sites/categories/:category/orders/${segment}`,
      {
        schema: {
          tags: ['catalogue'],
          summary,
          params: categoryParams,
          response: { 200: catalogueListSchema, ...errorResponses(404) },
        },
      },
      async (request) => service.categoryList({ category: request.params.category, kind }),
    );
  }

  app.get(
    '/api/en/sites/categories/:category/orders/calcs',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Price tables of a site category (amounts in USD with 2 decimals)',
        params: categoryParams,
        response: { 200: calcsSchema, ...errorResponses(404) },
      },
    },
    async (request) => service.calcs({ category: request.params.category }),
  );

  app.get(
    '/api/en/sites/:idSite/orders/urgencies',
    {
      schema: {
        tags: ['catalogue'],
        summary: 'Urgency options of a site, longest deadline first',
        params: z.object({ idSite: z.string().max(12) }),
        response: { 200: z.array(urgencySchema), ...errorResponses(404) },
      },
    },
    async (request) => service.urgencies({ idSite: request.params.idSite }),
  );

  for (const [segment, kind, summary] of SHARED_LISTS) {
    app.get(`/api/en/orders/${segment}`, { schema: { tags: ['catalogue'], summary, response: { 200: catalogueListSchema } } }, async () =>
      service.list({ kind }),
    );
  }
};
