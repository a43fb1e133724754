import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema, reviewBodySchema, reviewRefSchema } from '@app/domain';
import { currentUser } from '../../plugins/auth';
import type { ReviewsService } from './reviews.service';

export const reviewsRoutes: FastifyPluginAsyncZod<{ service: ReviewsService }> = async (app, { service }) => {
  app.post(
    '/api/en/orders/:id/reviews',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['reviews'],
        summary: 'Reviews a completed order once: rating 0 to 5 in half steps, and a comment',
        security: [{ bearer: [] }],
        params: z.object({ id: z.string().max(20) }),
        body: reviewBodySchema,
        response: { 200: reviewRefSchema, 401: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema, 422: errorBodySchema },
      },
    },
    async (request) => service.add({ customerId: currentUser(request).userId, orderId: request.params.id, body: request.body }),
  );
};
