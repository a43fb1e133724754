import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext, ModuleOptions } from '../../context';
import { systemClock } from '../../lib/clock';
import { createDiskFileStorage, type FileStorage } from '../../lib/file-storage';
import { accountRateLimit } from '../../plugins/rate-limit';
import { filesRoutes, type UploadRate } from './files.routes';
import { createFilesService, type FilesService, type IncomingFile, type ReceivedFile, type StoredDownload } from './files.service';

export type { FilesService, IncomingFile, ReceivedFile, StoredDownload, UploadRate };
export type { FileStorage };
export { downloadQuerySchema, incomingOrderFile, sendDownload } from './files.routes';
/** The account deletion's erase step and the personal-data report's section (ADR 0052, 0077). */
export { eraseCustomerFiles, filesReport } from './files.personal-data.repo';

/**
 * ADR 0080: the configured storage: the folder FILES_DIR, or (FILES_STORAGE=s3) the bucket, whose SDK is
 * loaded only then and which must answer to its key now, or the start stops with the setting to fix.
 */
export const openFileStorage = async (config: AppContext['config']): Promise<FileStorage> => {
  if (!config.s3) return createDiskFileStorage(config.filesDir);
  const { createS3FileStorage } = await import('../../lib/s3-file-storage');
  return createS3FileStorage(config.s3);
};

/**
 * Order files and chat attachments over the configured storage (`openFileStorage`), with the one
 * upload use case of ADR 0073 (`receive`, then `charge` in the recording transaction) behind every path.
 */
export const createFiles = (ctx: Pick<AppContext, 'db' | 'config' | 'clock' | 'log'>, storage: FileStorage): FilesService =>
  createFilesService({
    db: ctx.db,
    storage,
    clock: ctx.clock,
    log: ctx.log,
    uploadQuotaBytes: ctx.config.quotas.uploadBytes,
  });

/**
 * ADR 0073: one counter of uploads per account (UPLOAD_RATE_PER_HOUR) for every upload path: order and
 * revision files, staff deliveries, chat attachments (one count per file). Built once (app.ts) and handed
 * to each module with an upload route: one counter, in the shared store (Redis when configured). A
 * customer's uploads count on their account, a staff member's on theirs.
 */
export const createUploadRate = (app: FastifyInstance, perHour: number): UploadRate => accountRateLimit(app, 'file-upload', perHour);

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** SPEC §7 order files and CONTRACT paths: upload, lists, download, delete. */
export const filesModule: FastifyPluginAsyncZod<ModuleOptions & { service: FilesService; uploadRate: UploadRate }> = async (
  app,
  { service, uploadRate },
) => {
  await app.register(filesRoutes, { service, uploadRate });

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
