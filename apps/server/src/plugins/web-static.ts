import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { useStyleNonce } from './security';

const API_PREFIXES = ['/api/', '/chat/', '/checkout/', '/sandbox/', '/pp/', '/healthz', '/forgotpassword'];

/** The placeholder in apps/web/index.html that carries the per-response style nonce. */
export const CSP_NONCE_PLACEHOLDER = '__CSP_NONCE__';

/**
 * Serves the built SPA from one origin (CONTRACT "Serving"); any other GET that wants HTML gets
 * index.html so that client routes survive a refresh. API paths answer JSON 404s. index.html carries
 * the response's CSP style nonce, which the dialogs' scroll lock needs for the one <style> it inserts.
 */
export const registerWebStatic = async (app: FastifyInstance, distDir: string): Promise<void> => {
  const indexFile = path.join(distDir, 'index.html');
  const built = existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      // Files are looked up per request, so a rebuild is served without a restart; a miss falls
      // through to the not-found handler below.
      wildcard: true,
      index: false,
      // A folder (`/` itself) is no file: it falls through to index.html below instead of a 403.
      allowedPath: (pathName) => !pathName.endsWith('/'),
      setHeaders: (res, filePath) => {
        // Hashed assets never change; index.html must always be revalidated.
        res.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => url === p.replace(/\/$/, '') || url.startsWith(p));
    if (request.method !== 'GET' || isApi || !built) {
      if (!built && !isApi && request.method === 'GET') {
        return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
      }
      return reply.status(404).send({ message: 'Not found' });
    }
    const html = await readFile(indexFile, 'utf8');
    const nonce = useStyleNonce(reply);
    reply.header('Cache-Control', 'no-cache');
    return reply.type('text/html; charset=utf-8').send(html.replaceAll(CSP_NONCE_PLACEHOLDER, nonce));
  });
};
