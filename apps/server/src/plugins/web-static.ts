import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import {
  APP_PAGES,
  DAILY_PAGE_MODULES,
  EARLY_REQUESTS_ELEMENT_ID,
  earlyRequests,
  findAppPage,
  INLINE_ANSWERS_ELEMENT_ID,
  LATER_CODE_ELEMENT_ID,
  NOT_FOUND_MODULE,
  robotsTxt,
  SERVER_DRAWN_ATTRIBUTE,
  SESSION_HINT_COOKIE,
  SHELL_SKELETON_HTML,
  SITE_SETTINGS_PATH,
  themeColors,
  themeDeclarations,
} from '@app/domain';
import { APP_CODE_ELEMENT_ID, APP_LOADER } from './app-loader';
import { EARLY_REQUESTS } from './early-requests';
import { useStyleNonce } from './security';
import type { PageRenderer } from './server-render';
import { THEME_BOOT_ELEMENT } from './theme-boot';

/** A built file's URL ends with a name that has an extension (`/assets/index-abc.js`, `/favicon.svg`). */
const FILE_NAME = /\/[^/]+\.[a-z0-9]+$/i;

const API_PREFIXES = ['/api/', '/chat/', '/checkout/', '/sandbox/', '/pp/', '/healthz', '/forgotpassword'];

/** The placeholder in apps/web/index.html that carries the per-response style nonce. */
export const CSP_NONCE_PLACEHOLDER = '__CSP_NONCE__';

/** What a page is, for the answers that go with it. */
export interface PageRequest {
  /** The app route it matched (`/order`, `/orderinfo/:id`, …); null for the 404 page. */
  route: string | null;
  request: FastifyRequest;
}

export interface WebStaticOptions {
  distDir: string;
  /**
   * The public API answers the page's first paint waits for, by API path (ADR 0040): they travel in the
   * page as JSON (`<script type="application/json">`, never executed, so the CSP's script-src is
   * unchanged) and the web app reads them instead of asking again.
   */
  firstAnswers?: (page: PageRequest) => Promise<Record<string, unknown>>;
  /** A visitor's first pages drawn by the server from those answers (ADR 0064); null leaves a page to the browser. */
  renderPage?: PageRenderer;
}

/** The app's container in apps/web/index.html. */
const ROOT_ELEMENT = '<div id="root"></div>';

/** Issue 27: the customer's own pages, which a signed-in browser draws after its startup. */
const SIGNED_IN_MODULES: ReadonlySet<string> = new Set([
  'dashboard',
  'transactions',
  'profile',
  'loyalty',
  'order-info',
  'order-info-lookup',
]);
const hasSessionHint = (request: FastifyRequest): boolean =>
  (request.headers.cookie ?? '').split(/;\s*/).includes(`${SESSION_HINT_COOKIE}=1`);
/** The folder of the built app that holds the server's render (`ssr/entry-server.js`): read by the server, never sent. */
const SERVER_RENDER_DIR = '/ssr/';

interface Manifest {
  [key: string]: { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean };
}

/** Manifest keys of a chunk and its static imports, the entry's own chunk excluded. */
const staticClosure = (manifest: Manifest, keys: Iterable<string>, seen = new Set<string>()): Set<string> => {
  const walk = (k: string) => {
    const chunk = manifest[k];
    if (!chunk || seen.has(k) || chunk.isEntry) return;
    seen.add(k);
    for (const i of chunk.imports ?? []) walk(i);
  };
  for (const k of keys) walk(k);
  return seen;
};

/**
 * A page's code: `preload`, its route module and that module's static imports (fetched with the entry,
 * not after it has run); `prefetch`, what that code may import later (the wizard's next steps, its
 * dialogs), which the app has the browser download once the page is drawn and idle, without running it.
 * A daily page's later code includes the other daily pages' (`alsoLater`, ADR 0101).
 */
const pageChunks = (manifest: Manifest, key: string, alsoLater: string[] = []): { preload: string[]; prefetch: string[] } => {
  const loaded = staticClosure(manifest, [key]);
  const later = staticClosure(manifest, [...[...loaded].flatMap((k) => manifest[k]?.dynamicImports ?? []), ...alsoLater]);
  for (const k of loaded) later.delete(k);
  const urls = (keys: Set<string>) => [...keys].map((k) => `/${manifest[k]?.file ?? ''}`);
  return { preload: urls(loaded), prefetch: urls(later) };
};

/**
 * The site's theme (SPEC §3 application_theme.mainColor) as a style element with the response's nonce:
 * a page the server drew is painted in its colours before the app runs (ADR 0064). Only a plain hex
 * colour makes it (`themeColors`), so nothing else can reach the style sheet.
 */
const themeStyle = (answers: Record<string, unknown>): string => {
  const settings = answers[SITE_SETTINGS_PATH] as { application_theme?: { mainColor?: unknown } } | undefined;
  const mainColor = settings?.application_theme?.mainColor;
  const colors = typeof mainColor === 'string' ? themeColors(mainColor) : null;
  return colors ? `<style nonce="${CSP_NONCE_PLACEHOLDER}">:root { ${themeDeclarations(colors)} }</style>` : '';
};

/** The site's first category (SPEC §3 siteCategories), which the dashboard's list is asked under. */
const firstCategory = (answers: Record<string, unknown>): number | undefined => {
  const settings = answers[SITE_SETTINGS_PATH] as { siteCategories?: unknown } | undefined;
  const first: unknown = Array.isArray(settings?.siteCategories) ? settings.siteCategories[0] : undefined;
  return typeof first === 'number' ? first : undefined;
};

/** The request's path and query string. */
const pageUrl = (request: FastifyRequest): { pathname: string; search: string } => {
  const url = new URL(request.url, 'http://page');
  return { pathname: url.pathname, search: url.search };
};

/** JSON inside <script type="application/json">: no `<` may end the element early. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="(\/assets\/[^"/]+\.css)"[^>]*>/g;

/**
 * A page the server drew carries its style sheets in itself (ADR 0065): it paints as soon as it arrives,
 * without a request more on the way to its first paint. Each goes in a <style> with the response's
 * nonce (the CSP allows no other). A sheet holding `</` (it could end the element early), or missing, stays a link.
 *
 * The link stays too, `disabled`: a browser neither fetches nor applies it, and the code that loads a lazy
 * chunk (Vite's preload helper, which looks for the sheets a chunk needs among the page's stylesheet links)
 * finds it there instead of fetching the sheet and applying it a second time before the chunk may run.
 */
const withStylesInline = (html: string, distDir: string): string =>
  html.replace(STYLESHEET_LINK, (link, href: string) => {
    const file = path.join(distDir, href);
    if (!existsSync(file)) return link;
    const css = readFileSync(file, 'utf8');
    return css.includes('</') ? link : `<style nonce="${CSP_NONCE_PLACEHOLDER}">${css}</style>${link.replace(/>$/, ' disabled>')}`;
  });

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOAD = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;

/** A page's code: the chunks fetched with the entry, and what it may load later (`pageChunks`). */
interface PageCode {
  preload: string[];
  later: string[];
}

/**
 * index.html as a page the server drew gets it (ADR 0065): its style sheets inside, and its code, the
 * entry script and the preload links, taken out for `APP_LOADER` to ask for after the first paint.
 */
const drawnTemplate = (html: string, distDir: string): { html: string; entry: string | null; preload: string[] } => {
  const preload: string[] = [];
  let entry: string | null = null;
  const page = withStylesInline(html, distDir)
    .replace(ENTRY_SCRIPT, (_tag, url: string) => {
      entry = url;
      return '';
    })
    .replace(MODULE_PRELOAD, (_tag, url: string) => {
      preload.push(url);
      return '';
    });
  return entry === null ? { html, entry: null, preload: [] } : { html: page, entry, preload };
};

/**
 * index.html and the build manifest, read again only when index.html changes (a rebuild is served
 * without a restart). Per route module: its chunks and the list of what it may load next (`pageChunks`),
 * for the app to prefetch when idle.
 */
const createTemplate = (distDir: string) => {
  const indexFile = path.join(distDir, 'index.html');
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  // Route module → the built file holding it (apps/web/vite.config.ts): a route merged into a chunk with
  // others (the signed-in pages, ADR 0100) has no key of its own in the manifest.
  const routeChunksFile = path.join(distDir, '.vite', 'route-chunks.json');
  type Template = { html: string; drawn: ReturnType<typeof drawnTemplate>; code: Map<string, PageCode> };
  let cached: (Template & { mtimeMs: number }) | undefined;
  return (): Template => {
    const { mtimeMs } = statSync(indexFile);
    if (cached?.mtimeMs === mtimeMs) return cached;
    const html = readFileSync(indexFile, 'utf8');
    const code = new Map<string, PageCode>();
    if (existsSync(manifestFile)) {
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
      const routeChunks = existsSync(routeChunksFile) ? (JSON.parse(readFileSync(routeChunksFile, 'utf8')) as Record<string, string>) : {};
      const keyOfFile = new Map(Object.entries(manifest).map(([k, chunk]) => [chunk.file, k]));
      const modules = new Set([...APP_PAGES.map((p) => p.module), NOT_FOUND_MODULE]);
      const keyOf = (module: string): string => {
        const own = `src/app/routes/${module}.tsx`;
        const merged = routeChunks[module];
        return manifest[own] || merged === undefined ? own : (keyOfFile.get(merged) ?? own);
      };
      const dailyKeys = DAILY_PAGE_MODULES.map(keyOf);
      for (const module of modules) {
        if (module === null) continue;
        const key = keyOf(module);
        const { preload, prefetch } = pageChunks(manifest, key, DAILY_PAGE_MODULES.includes(module) ? dailyKeys : []);
        // The later code is listed, not linked: a <link rel="prefetch"> would start before the first
        // paint and compete with it; the app prefetches the list once the page is drawn and idle.
        code.set(module, { preload: preload.filter((url) => !html.includes(url)), later: prefetch.filter((url) => !html.includes(url)) });
      }
    }
    cached = { mtimeMs, html, drawn: drawnTemplate(html, distDir), code };
    return cached;
  };
};

/**
 * Serves the built SPA from one origin (CONTRACT "Serving"). The app's routes (SPEC §2, listed once in
 * the domain package) answer index.html with 200, any other page path the same app with 404 (it draws
 * its 404 page), API paths JSON 404s. HEAD works wherever GET does. index.html carries the response's
 * CSP style nonce (the dialogs' scroll lock needs it for the one <style> it inserts), the page's first
 * API answers and the preload links of its code (ADR 0040). Built files go out precompressed (.br, .gz
 * written at build time) when the browser accepts it.
 */
export const registerWebStatic = async (app: FastifyInstance, { distDir, firstAnswers, renderPage }: WebStaticOptions): Promise<void> => {
  const indexFile = path.join(distDir, 'index.html');
  const built = existsSync(indexFile);
  const template = createTemplate(distDir);

  app.get('/robots.txt', async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=3600').type('text/plain; charset=utf-8').send(robotsTxt()),
  );

  const sendPage = async (request: FastifyRequest, reply: FastifyReply, route: string | null, module: string | null) => {
    if (!built) return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    const { html, drawn: drawnPage, code } = template();
    const answers = firstAnswers ? await firstAnswers({ route, request }) : {};
    const pageCode = (module ? code.get(module) : undefined) ?? { preload: [], later: [] };
    const drawn = route !== null && renderPage && drawnPage.entry !== null ? await renderPage({ route, request, answers }) : null;
    // A page left to the browser links its code at once; a drawn one lists it for the loader (ADR 0065).
    // Issue 27: a signed-in customer's page paints as the shell with placeholders before any script has
    // run (the app replaces it with the same while its startup runs, then with the page).
    const skeleton = drawn === null && module !== null && SIGNED_IN_MODULES.has(module) && hasSessionHint(request);
    // ADR 0101: the skeleton is painted before the app's code is asked for, as a drawn page is (ADR 0065):
    // its style sheet inside, its code listed for the loader, which asks for it once the skeleton is on
    // screen. Only the first answers (tiny) are asked for before.
    const paintsFirst = skeleton && drawnPage.entry !== null;
    const preloadLinks =
      drawn === null && !paintsFirst ? pageCode.preload.map((url) => `<link rel="modulepreload" crossorigin href="${url}">`).join('') : '';
    // ADR 0100: and asks for its first answers at once, beside its code: before the style sheet's link,
    // which an inline script after it would wait for.
    const early = skeleton && module !== null ? earlyRequests({ module, ...pageUrl(request), category: firstCategory(answers) }) : [];
    const earlyScript =
      early.length > 0
        ? `<script type="application/json" id="${EARLY_REQUESTS_ELEMENT_ID}">${scriptJson(early)}</script><script>${EARLY_REQUESTS}</script>`
        : '';
    // ADR 0094: the colour scheme before anything in <body> is painted.
    const head =
      `${themeStyle(answers)}${THEME_BOOT_ELEMENT}${preloadLinks}` +
      `<script type="application/json" id="${LATER_CODE_ELEMENT_ID}">${scriptJson(pageCode.later)}</script>` +
      `<script type="application/json" id="${INLINE_ANSWERS_ELEMENT_ID}">${scriptJson(answers)}</script></head>`;
    // Inert until the app has hydrated it (apps/web/src/app/app.tsx): nothing can be clicked or typed
    // into before the code that handles it runs.
    const root =
      drawn === null
        ? skeleton
          ? `<div id="root">${SHELL_SKELETON_HTML}</div>` +
            (paintsFirst
              ? `<script type="application/json" id="${APP_CODE_ELEMENT_ID}">${scriptJson({ entry: drawnPage.entry, preload: [...drawnPage.preload, ...pageCode.preload] })}</script>` +
                `<script>${APP_LOADER}</script>`
              : '')
          : ROOT_ELEMENT
        : `<div id="root" ${SERVER_DRAWN_ATTRIBUTE} inert>${drawn}</div>` +
          `<script type="application/json" id="${APP_CODE_ELEMENT_ID}">${scriptJson({ entry: drawnPage.entry, preload: [...drawnPage.preload, ...pageCode.preload] })}</script>` +
          `<script>${APP_LOADER}</script>`;
    const nonce = useStyleNonce(reply);
    reply.header('Cache-Control', 'no-cache');
    // The page differs with the session hint (ADR 0064): a cache in between must keep both.
    if (renderPage || (module !== null && SIGNED_IN_MODULES.has(module))) reply.header('Vary', 'Cookie');
    return reply
      .status(route === null ? 404 : 200)
      .type('text/html; charset=utf-8')
      .send(
        (drawn === null && !paintsFirst ? html : drawnPage.html)
          .replace(/<title>|<\/head>/, (tag) => `${earlyScript}${tag}`)
          .replace('</head>', head)
          .replace(ROOT_ELEMENT, () => root)
          .replaceAll(CSP_NONCE_PLACEHOLDER, nonce),
      );
  };

  // Routes, not the static wildcard: `/` was a directory to it (403 Forbidden, ADR 0041).
  for (const page of APP_PAGES) {
    app.get(page.path, async (request, reply) => sendPage(request, reply, page.path, page.module));
  }

  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      // Files are looked up per request, so a rebuild is served without a restart; a miss falls
      // through to the not-found handler below.
      wildcard: true,
      index: false,
      // Only names with an extension are files: a folder (`/assets/`) is a miss like any other, not
      // 403 Forbidden, and page paths never reach the disk.
      list: false,
      allowedPath: (pathName) => FILE_NAME.test(pathName) && !pathName.startsWith(SERVER_RENDER_DIR),
      // The .br and .gz files written next to each built file (apps/web/vite.config.ts), chosen by Accept-Encoding.
      preCompressed: true,
      setHeaders: (res, filePath) => {
        // Hashed assets never change; other files (favicon, index.html) must always be revalidated.
        res.header('Cache-Control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = API_PREFIXES.some((p) => url === p.replace(/\/$/, '') || url.startsWith(p));
    const isGet = request.method === 'GET' || request.method === 'HEAD';
    // A missing file (a name with an extension, anything under /assets/) is not a page.
    const isFile = url.startsWith('/assets/') || FILE_NAME.test(url);
    if (!isGet || isApi) return reply.status(404).send({ message: 'Not found' });
    if (isFile) return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
    // Trailing-slash forms of the app's routes (`/order/`) reach here through the static wildcard.
    const page = findAppPage(url);
    return page ? sendPage(request, reply, page.path, page.module) : sendPage(request, reply, null, NOT_FOUND_MODULE);
  });
};
