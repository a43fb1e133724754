import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { createReviewsRepo } from './reviews.repo';
import { reviewsRoutes } from './reviews.routes';
import { createReviewsService, type ReviewsService } from './reviews.service';

export type { ReviewsService };
/** The account deletion's erase step (ADR 0052, 0077). */
export { eraseCustomerReviews } from './reviews.personal-data.repo';

/** Reviews of completed orders (SPEC §3 "Feedback", §7). */
export const createReviews = (ctx: Pick<AppContext, 'db' | 'clock'>): ReviewsService =>
  createReviewsService({ repo: createReviewsRepo(ctx.db), clock: ctx.clock });

export const reviewsModule: FastifyPluginAsyncZod<{ service: ReviewsService }> = async (app, { service }) => {
  await app.register(reviewsRoutes, { service });
};
