import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ModuleOptions } from '../../context';

/** CONTRACT "Serving": GET /healthz answers 200 when the database answers. */
export const healthModule: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  app.get(
    '/healthz',
    {
      schema: {
        tags: ['health'],
        response: { 200: z.object({ status: z.literal('ok'), database: z.string() }), 503: z.object({ message: z.string() }) },
      },
    },
    async (_request, reply) => {
      try {
        await ctx.db.query('SELECT 1');
        return { status: 'ok' as const, database: ctx.db.kind };
      } catch {
        return reply.status(503).send({ message: 'database unavailable' });
      }
    },
  );
};
