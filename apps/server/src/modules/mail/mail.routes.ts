import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MailRepo } from './mail.repo';

const outboxMailSchema = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  headers: z.record(z.string(), z.string()),
  attachments: z.array(z.object({ filename: z.string(), contentType: z.string(), content: z.string() })),
  createdAt: z.string(),
});

/**
 * CONTRACT: GET /api/dev/outbox?to={email}, only when NODE_ENV is not production (the app does not
 * register it there) and only to the clients `allow` admits; any other client gets the 404 of a route
 * that does not exist.
 */
export const mailRoutes: FastifyPluginAsyncZod<{ repo: MailRepo; allow: (request: FastifyRequest) => boolean }> = async (
  app,
  { repo, allow },
) => {
  app.get(
    '/api/dev/outbox',
    {
      onRequest: async (request, reply) => {
        if (!allow(request)) return reply.callNotFound();
      },
      schema: {
        tags: ['dev'],
        summary: 'Mail sent to an address through the built-in outbox, newest first',
        querystring: z.object({ to: z.string().min(3).max(254), limit: z.coerce.number().int().min(1).max(100).default(20) }),
        response: { 200: z.object({ messages: z.array(outboxMailSchema) }) },
      },
    },
    async (request) => ({ messages: await repo.listFor(request.query.to, request.query.limit) }),
  );
};
