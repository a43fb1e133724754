import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext, ModuleOptions } from '../../context';
import { systemClock } from '../../lib/clock';
import { createDiskFileStorage } from '../../lib/file-storage';
import { createFilesRepo } from './files.repo';
import { filesRoutes } from './files.routes';
import { createFilesService, type FilesService, type IncomingFile } from './files.service';

export type { FilesService, IncomingFile };
export { incomingOrderFile, sendDownload } from './files.routes';

/** Order files over the configured storage (disk under FILES_DIR). */
export const createFiles = (ctx: Pick<AppContext, 'db' | 'config' | 'clock'>): FilesService =>
  createFilesService({
    repo: createFilesRepo(ctx.db),
    storage: createDiskFileStorage(ctx.config.filesDir),
    clock: ctx.clock,
    uploadQuotaBytes: ctx.config.quotas.uploadBytes,
  });

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** SPEC §7 order files and CONTRACT paths: upload, lists, download, delete. */
export const filesModule: FastifyPluginAsyncZod<ModuleOptions & { service: FilesService }> = async (app, { ctx, service }) => {
  await app.register(filesRoutes, { service, uploadsPerHour: ctx.config.quotas.uploadsPerHour });

  // ADR 0039: orphan files (a crash between storing an upload and recording it) are swept at start and
  // every hour. File ages are wall-clock times, so the sweep reads the system clock, not the app's.
  const sweep = async (): Promise<void> => {
    const removed = await service.sweepOrphans({ now: systemClock.now() });
    if (removed > 0) app.log.info({ removed }, 'orphan upload files removed');
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    await sweep().catch((error: unknown) => app.log.error({ err: error }, 'orphan file sweep failed'));
    timer = setInterval(
      () => void sweep().catch((error: unknown) => app.log.error({ err: error }, 'orphan file sweep failed')),
      SWEEP_EVERY_MS,
    );
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
};
