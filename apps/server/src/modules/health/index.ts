import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { ModuleOptions } from '../../context';

/** ADR 0074: a database that has not answered the probe within this is as good as down. */
const PROBE_TIMEOUT_MS = 3_000;

/**
 * CONTRACT "Serving": GET /healthz answers 200 when the database answers, 503 when it fails or does not
 * answer within PROBE_TIMEOUT_MS (a hung server never holds the probe past the load balancer's timeout).
 */
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
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), PROBE_TIMEOUT_MS);
      });
      try {
        await Promise.race([ctx.db.query('SELECT 1'), late]);
        return { status: 'ok' as const, database: ctx.db.kind };
      } catch {
        return reply.status(503).send({ message: 'database unavailable' });
      } finally {
        clearTimeout(timer);
      }
    },
  );
};
