import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import type { FilesService, UploadRate } from '../files';
import { createRevisionsRepo } from './revisions.repo';
import { revisionsRoutes } from './revisions.routes';
import { createRevisionsService, type RevisionsService } from './revisions.service';

export type { RevisionsService };
/** The account deletion's erase step and the personal-data report's section (ADR 0052, 0077). */
export { eraseCustomerRevisions, revisionsReport } from './revisions.personal-data.repo';

/** Free revisions of completed orders (ADR 0044): the customer's API here, staff's in modules/staff. */
export const createRevisions = (
  ctx: Pick<AppContext, 'db' | 'clock' | 'mailer' | 'origin' | 'log'>,
  { files }: { files: FilesService },
): RevisionsService =>
  createRevisionsService({
    repo: createRevisionsRepo(ctx.db),
    clock: ctx.clock,
    files,
  });

export const revisionsModule: FastifyPluginAsyncZod<{ service: RevisionsService; uploadRate: UploadRate }> = async (
  app,
  { service, uploadRate },
) => {
  await app.register(revisionsRoutes, { service, uploadRate });
};
