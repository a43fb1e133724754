import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext, ModuleOptions } from '../../context';
import { createDiskFileStorage } from '../../lib/file-storage';
import { createFilesRepo } from './files.repo';
import { filesRoutes } from './files.routes';
import { createFilesService, type FilesService } from './files.service';

export type { FilesService };
export { incomingOrderFile } from './files.routes';

/** Order files over the configured storage (disk under FILES_DIR). */
export const createFiles = (ctx: Pick<AppContext, 'db' | 'config' | 'clock'>): FilesService =>
  createFilesService({ repo: createFilesRepo(ctx.db), storage: createDiskFileStorage(ctx.config.filesDir), clock: ctx.clock });

/** SPEC §7 order files and CONTRACT paths: upload, lists, download, delete. */
export const filesModule: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  await app.register(filesRoutes, { service: createFiles(ctx) });
};
