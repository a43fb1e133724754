import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import type { FilesService, UploadRate } from '../files';
import { disputesRoutes } from './disputes.routes';
import { createDisputes } from './disputes.service';

/** The account deletion's erase step and the personal-data report's section (ADR 0052, 0077). */
export { disputesReport, eraseCustomerDisputes } from './disputes.personal-data.repo';

/**
 * ADR 0087: cancel with the money shown and disputes (CONTRACT "After payment"); the policy is the
 * settings' CANCEL_IN_PROGRESS_REFUND_PERCENT. Registered in the multipart scope (a dispute carries files).
 */
export const disputesModule: FastifyPluginAsyncZod<{
  ctx: Pick<AppContext, 'db' | 'clock' | 'log' | 'config'>;
  files: FilesService;
  uploadRate: UploadRate;
}> = async (app, { ctx, files, uploadRate }) => {
  const service = createDisputes({
    db: ctx.db,
    clock: ctx.clock,
    log: ctx.log,
    policy: ctx.config.cancelPolicy,
  });
  await app.register(disputesRoutes, { service, files, uploadRate });
};
