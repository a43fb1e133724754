import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { reviewBodySchema, reviewRefSchema } from '@app/domain';
import { currentUser } from '../../plugins/auth';
import type { ReviewsService } from './reviews.service';
import { bearer, errorResponses, idParams } from '../../lib/route-schemas';

export const reviewsRoutes: FastifyPluginAsyncZod<{ service: ReviewsService }> = async (app, { service }) => {
  app.post(
    '/api/en/orders/:id/reviews',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['reviews'],
        summary: 'Reviews a completed order once: rating 0 to 5 in half steps, and a comment',
        security: bearer,
        params: idParams,
        body: reviewBodySchema,
        response: { 200: reviewRefSchema, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => service.add({ customerId: currentUser(request).userId, orderId: request.params.id, body: request.body }),
  );
};
