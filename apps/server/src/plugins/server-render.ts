import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { MAGIC_LINK_PARAM, SERVER_DRAWN_PATHS, SESSION_HINT_COOKIE } from '@app/domain';

/** What apps/web/src/entry-server.tsx exports. */
interface ServerEntry {
  render: (pathname: string, search: string, answers: Record<string, unknown>) => Promise<string>;
}

/** The page the server may draw: its route, the request (path, query string, cookies) and the answers it carries. */
export interface DrawnPage {
  route: string;
  request: FastifyRequest;
  answers: Record<string, unknown>;
}

/** HTML for the app's container, or null: the browser draws the page alone, as it always could. */
export type PageRenderer = (page: DrawnPage) => Promise<string | null>;

/** Drawn pages kept: one per page, query string and answers (settings, catalogues) in use. */
const CACHE_ENTRIES = 64;
/** A longer query string is no wizard link of ours: such a page is left to the browser. */
const MAX_SEARCH_LENGTH = 512;
/**
 * Renders (not cache hits) a second at most: /order takes about 3 ms once warm (30–45 ms the first), so a
 * flood of new query strings (an ad's click ids make every visit's new) costs at most a sixth of a core,
 * and the pages beyond it are drawn by their browsers.
 */
const RENDERS_PER_SECOND = 50;

const hasSessionHint = (request: FastifyRequest): boolean =>
  (request.headers.cookie ?? '').split(/;\s*/).includes(`${SESSION_HINT_COOKIE}=1`);

/**
 * ADR 0064: a visitor's /order and /login come drawn by the server, from the same answers the page carries
 * (ADR 0040), with the web app's own render (`dist/ssr/entry-server.js`, built with the app). The browser
 * paints them before any script has run and then hydrates them. A request with the session hint, a
 * sign-in link or a long query string, and any failure, gets the page undrawn (the browser draws it).
 * The same page for the same answers is drawn once: visitors share it.
 */
export const createPageRenderer = ({
  entryFile,
  log,
  rendersPerSecond = RENDERS_PER_SECOND,
  now = Date.now,
}: {
  entryFile: string;
  log: FastifyBaseLogger;
  rendersPerSecond?: number;
  now?: () => number;
}): PageRenderer => {
  let entry: Promise<ServerEntry | null> | undefined;
  const load = () =>
    (entry ??= existsSync(entryFile)
      ? (import(pathToFileURL(entryFile).href) as Promise<ServerEntry>).catch((error: unknown) => {
          log.warn({ err: error }, 'the web app’s server render could not be loaded; pages are drawn by the browser');
          return null;
        })
      : Promise.resolve(null));
  const drawn = new Map<string, string>();
  let second = 0;
  let rendersThisSecond = 0;
  const mayRender = (): boolean => {
    const current = Math.floor(now() / 1000);
    if (current !== second) {
      second = current;
      rendersThisSecond = 0;
    }
    rendersThisSecond += 1;
    return rendersThisSecond <= rendersPerSecond;
  };

  return async ({ route, request, answers }) => {
    if (!SERVER_DRAWN_PATHS.includes(route) || hasSessionHint(request)) return null;
    // As the browser's location: the path, and the query string from the first `?` on ('' when bare).
    const at = request.url.indexOf('?');
    const pathname = at === -1 ? request.url : request.url.slice(0, at);
    const search = at === -1 || at === request.url.length - 1 ? '' : request.url.slice(at);
    if (search.length > MAX_SEARCH_LENGTH || new URLSearchParams(search).has(MAGIC_LINK_PARAM)) return null;
    const app = await load();
    if (!app) return null;
    const key = createHash('sha256')
      .update(`${pathname}${search}\n${JSON.stringify(answers)}`)
      .digest('base64url');
    const cached = drawn.get(key);
    if (cached !== undefined) {
      // Most recently used last: the first key is the one to drop.
      drawn.delete(key);
      drawn.set(key, cached);
      return cached;
    }
    if (!mayRender()) return null;
    try {
      const html = await app.render(pathname, search, answers);
      drawn.set(key, html);
      if (drawn.size > CACHE_ENTRIES) drawn.delete(drawn.keys().next().value as string);
      return html;
    } catch (error) {
      log.warn({ err: error, route }, 'the server could not draw the page; the browser draws it');
      return null;
    }
  };
};
