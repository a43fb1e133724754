import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { APP_LOADER } from './app-loader';
import { THEME_BOOT } from './theme-boot';
import { SESSION_HINT_COOKIE } from '@app/domain/routes';
import { SHELL_SKELETON_HTML } from '@app/domain/ui';
import { EARLY_REQUESTS, EARLY_REQUESTS_HASH } from './early-requests';
import { createPageRenderer } from './server-render';
import { loadConfig } from '../config';
import { createTestClock, createTestDb } from '../testing/build-test-app';

// The web app's server render (apps/web/src/entry-server.tsx) stands in here as a module of the same shape
// that says what it was given; the journeys (e2e/server-drawn.spec.ts) run the real one.
const ENTRY = `
globalThis.serverRenderCalls ??= [];
export const render = async (pathname, search, answers) => {
  globalThis.serverRenderCalls.push(pathname + search);
  if (search.includes('explode')) throw new Error('the render failed');
  return '<p>drawn ' + pathname + search + ' with ' + Object.keys(answers).sort().join(',') + '</p>';
};
`;
const CSS = 'body{color:#111}.a>.b{margin:0}';
const calls = (): string[] => (globalThis as { serverRenderCalls?: string[] }).serverRenderCalls ?? [];

let dist: string;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
const apps: FastifyInstance[] = [];

const start = async (env: Record<string, string> = {}): Promise<FastifyInstance> => {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'server-render-secret-server-render-0123',
    WEB_DIST_DIR: dist,
    ...env,
  });
  const app = await buildApp({ config, db: testDb.db, clock: createTestClock(), serveWeb: true });
  await app.ready();
  apps.push(app);
  return app;
};

const rootOf = (body: string): string => /<div id="root"[^>]*>.*?<\/div>/.exec(body)?.[0] ?? '';

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'web-ssr-'));
  mkdirSync(path.join(dist, 'ssr'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'assets', 'index-1.css'), CSS);
  writeFileSync(
    path.join(dist, 'index.html'),
    '<html><head><title>t</title><link rel="modulepreload" crossorigin href="/assets/runtime-1.js"><link rel="stylesheet" crossorigin href="/assets/index-1.css"></head>' +
      '<body><div id="root"></div><script type="module" crossorigin src="/assets/index-1.js"></script></body></html>',
  );
  writeFileSync(path.join(dist, 'ssr', 'entry-server.js'), ENTRY);
  testDb = await createTestDb();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await testDb.drop();
  rmSync(dist, { recursive: true, force: true });
});
beforeEach(() => {
  calls().splice(0);
});

describe('a visitor’s first pages come drawn by the server (ADR 0064)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await start();
  });

  it('draws /order from the answers the page carries, inert until the browser hydrates it', async () => {
    const res = await app.inject({ method: 'GET', url: '/order' });
    expect(res.statusCode).toBe(200);
    const root = rootOf(res.body);
    expect(root).toMatch(/^<div id="root" data-server-drawn inert><p>drawn \/order with /);
    // The wizard's page carries the site settings and its catalogues; the render had the same.
    const answers = /<script type="application\/json" id="inline-answers">(.*?)<\/script>/.exec(res.body)?.[1] ?? '{}';
    expect(root).toContain(
      `with ${Object.keys(JSON.parse(answers) as object)
        .sort()
        .join(',')}</p>`,
    );
    expect(root).toContain('/api/en/sites/settings');
    expect(res.headers.vary).toContain('Cookie');
  });

  it('paints it in the site’s theme: a style element with this response’s nonce', async () => {
    const res = await app.inject({ method: 'GET', url: '/login' });
    const nonce = /style-src 'self' 'nonce-([0-9a-f]{32})'/.exec(String(res.headers['content-security-policy']))?.[1];
    expect(nonce).toBeDefined();
    expect(res.body).toContain(
      `<style nonce="${nonce}">:root { --theme-primary: #1d4ed8; --theme-on-primary: #ffffff; --theme-primary-text: #1d4ed8; --theme-primary-dark: #7795e8; --theme-on-primary-dark: #0f172a }</style>`,
    );
  });

  it('carries its style sheet in itself, with this response’s nonce; a page left to the browser links it (ADR 0065)', async () => {
    const drawn = await app.inject({ method: 'GET', url: '/login' });
    const nonce = /style-src 'self' 'nonce-([0-9a-f]{32})'/.exec(String(drawn.headers['content-security-policy']))?.[1];
    // The link stays, disabled: neither fetched nor applied, but there for the code that loads lazy chunks.
    expect(drawn.body).toContain(
      `<style nonce="${nonce}">${CSS}</style><link rel="stylesheet" crossorigin href="/assets/index-1.css" disabled>`,
    );
    const left = await app.inject({ method: 'GET', url: '/dashboard' });
    expect(left.body).toContain('<link rel="stylesheet" crossorigin href="/assets/index-1.css">');
    expect(left.body).not.toContain(CSS);
  });

  it('asks for the app’s code only once painted: the one inline script, allowed by its hash, loads what the page listed (ADR 0065)', async () => {
    const drawn = await app.inject({ method: 'GET', url: '/login' });
    expect(drawn.body).not.toContain('<script type="module"');
    expect(drawn.body).not.toContain('rel="modulepreload"');
    const code = /<script type="application\/json" id="app-code">(.*?)<\/script>/.exec(drawn.body)?.[1];
    expect(JSON.parse(code ?? '{}')).toEqual({ entry: '/assets/index-1.js', preload: ['/assets/runtime-1.js'] });
    const inline = [...drawn.body.matchAll(/<script>(.*?)<\/script>/gs)].map((m) => m[1] ?? '');
    // ADR 0094: the colour scheme's script in the head, then the loader at the end.
    expect(inline).toEqual([THEME_BOOT, APP_LOADER]);
    const [boot, loader] = inline.map((script) => createHash('sha256').update(script).digest('base64').replace(/[+/]/g, '\\$&'));
    // The third hash is ADR 0100's early requests, which a visitor's page does not carry.
    const early = EARLY_REQUESTS_HASH.replace(/[+/]/g, '\\$&');
    expect(String(drawn.headers['content-security-policy'])).toMatch(
      new RegExp(`script-src 'self' 'sha256-${loader}' 'sha256-${boot}' ${early};`),
    );
    // A page left to the browser keeps its code as the build wrote it.
    const left = await app.inject({ method: 'GET', url: '/dashboard' });
    expect(left.body).toContain('<script type="module" crossorigin src="/assets/index-1.js"></script>');
    expect(left.body).toContain('<link rel="modulepreload" crossorigin href="/assets/runtime-1.js">');
    expect(left.body).not.toContain(APP_LOADER);
  });

  it('paints a signed-in customer’s skeleton before asking for the code, its first answers asked at once (ADR 0101)', async () => {
    const page = await app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: `${SESSION_HINT_COOKIE}=1` } });
    const nonce = /style-src 'self' 'nonce-([0-9a-f]{32})'/.exec(String(page.headers['content-security-policy']))?.[1];
    expect(page.body).toContain(`<style nonce="${nonce}">${CSS}</style>`);
    expect(rootOf(page.body)).toContain('<div id="root"><div role="status" aria-label="Loading" aria-busy="true" data-skeleton="shell"');
    expect(page.body).toContain(SHELL_SKELETON_HTML);
    expect(page.body).not.toContain('<script type="module"');
    expect(page.body).not.toContain('rel="modulepreload"');
    const code = /<script type="application\/json" id="app-code">(.*?)<\/script>/.exec(page.body)?.[1];
    expect(JSON.parse(code ?? '{}')).toMatchObject({ entry: '/assets/index-1.js' });
    const inline = [...page.body.matchAll(/<script>(.*?)<\/script>/gs)].map((m) => m[1] ?? '');
    expect(inline).toEqual([EARLY_REQUESTS, THEME_BOOT, APP_LOADER]);
  });

  it('sets the customer’s colour scheme before the body of every page, drawn or not (ADR 0094)', async () => {
    for (const url of ['/login', '/dashboard', '/no-such-page']) {
      const { body } = await app.inject({ method: 'GET', url });
      const head = body.slice(0, body.indexOf('<body'));
      expect(head, url).toContain(`<script>${THEME_BOOT}</script>`);
    }
  });

  it('draws /login, and keeps the query string for the app', async () => {
    expect(rootOf((await app.inject({ method: 'GET', url: '/login' })).body)).toContain('<p>drawn /login with');
    expect(rootOf((await app.inject({ method: 'GET', url: '/order?service=2' })).body)).toContain('<p>drawn /order?service=2 with');
    expect(rootOf((await app.inject({ method: 'GET', url: '/order?a=1?b=2' })).body)).toContain('<p>drawn /order?a=1?b=2 with');
    expect(rootOf((await app.inject({ method: 'GET', url: '/order?' })).body)).toContain('<p>drawn /order with');
  });

  it('leaves every other page to the browser: the signed-in pages, `/`, the 404 page', async () => {
    for (const url of ['/dashboard', '/orderinfo/5', '/', '/no-such-page', '/staff']) {
      const res = await app.inject({ method: 'GET', url });
      expect(rootOf(res.body), url).toBe('<div id="root"></div>');
    }
    expect(calls()).toEqual([]);
  });

  it('does not draw a visitor’s page for a browser that says it holds a session', async () => {
    const hinted = await app.inject({ method: 'GET', url: '/order', headers: { cookie: 'theme=dark; signed_in=1' } });
    expect(rootOf(hinted.body)).toBe('<div id="root"></div>');
    const cleared = await app.inject({ method: 'GET', url: '/order', headers: { cookie: 'signed_in=; other=1' } });
    expect(rootOf(cleared.body)).toContain('<p>drawn /order');
  });

  it('does not draw a page opened by a sign-in link, nor one with a long query string', async () => {
    const link = await app.inject({ method: 'GET', url: '/order?magicLink=secret-token' });
    expect(rootOf(link.body)).toBe('<div id="root"></div>');
    const long = await app.inject({ method: 'GET', url: `/order?q=${'x'.repeat(600)}` });
    expect(rootOf(long.body)).toBe('<div id="root"></div>');
    expect(calls()).toEqual([]);
  });

  it('draws the same page for the same answers once', async () => {
    await app.inject({ method: 'GET', url: '/login?once' });
    await app.inject({ method: 'GET', url: '/login?once' });
    expect(calls()).toEqual(['/login?once']);
  });

  it('serves the page undrawn when the render fails, and never serves the render’s own code', async () => {
    const failed = await app.inject({ method: 'GET', url: '/order?explode' });
    expect(failed.statusCode).toBe(200);
    expect(rootOf(failed.body)).toBe('<div id="root"></div>');
    expect((await app.inject({ method: 'GET', url: '/ssr/entry-server.js' })).statusCode).toBe(404);
  });
});

describe('SERVER_RENDER=0', () => {
  it('leaves every page to the browser', async () => {
    const app = await start({ SERVER_RENDER: '0' });
    const res = await app.inject({ method: 'GET', url: '/order' });
    expect(rootOf(res.body)).toBe('<div id="root"></div>');
    expect(res.headers.vary ?? '').not.toContain('Cookie');
    expect(calls()).toEqual([]);
  });
});

describe('a build without the server render', () => {
  it('serves the pages undrawn', async () => {
    const bare = mkdtempSync(path.join(os.tmpdir(), 'web-bare-'));
    writeFileSync(path.join(bare, 'index.html'), '<html><head></head><body><div id="root"></div></body></html>');
    try {
      const app = await start({ WEB_DIST_DIR: bare });
      const res = await app.inject({ method: 'GET', url: '/order' });
      expect(res.statusCode).toBe(200);
      expect(rootOf(res.body)).toBe('<div id="root"></div>');
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});

describe('a drawn page’s style sheet (ADR 0065)', () => {
  const pageWith = async (files: Record<string, string>, html: string): Promise<string> => {
    const other = mkdtempSync(path.join(os.tmpdir(), 'web-css-'));
    mkdirSync(path.join(other, 'ssr'));
    mkdirSync(path.join(other, 'assets'));
    writeFileSync(path.join(other, 'ssr', 'entry-server.js'), ENTRY);
    for (const [name, text] of Object.entries(files)) writeFileSync(path.join(other, 'assets', name), text);
    writeFileSync(path.join(other, 'index.html'), html);
    try {
      const app = await start({ WEB_DIST_DIR: other });
      return (await app.inject({ method: 'GET', url: '/login' })).body;
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  };

  it('stays a link when it holds `</` (it could end the element early) or is missing; the page is drawn all the same', async () => {
    const links = '<link rel="stylesheet" crossorigin href="/assets/odd.css"><link rel="stylesheet" crossorigin href="/assets/gone.css">';
    const body = await pageWith(
      { 'odd.css': 'a::after{content:"</style><script>alert(1)</script>"}' },
      `<html><head>${links}</head><body><div id="root"></div><script type="module" crossorigin src="/assets/index-1.js"></script></body></html>`,
    );
    expect(rootOf(body)).toContain('<p>drawn /login');
    expect(body).toContain(links);
    expect(body).not.toContain('alert(1)');
  });
});

/** The renderer alone, on a request with `url` and no cookie. */
const rendererFor = async (options: { rendersPerSecond: number; now?: () => number }) => {
  const app = await start();
  const renderPage = createPageRenderer({ entryFile: path.join(dist, 'ssr', 'entry-server.js'), log: app.log, ...options });
  return (url: string) =>
    renderPage({ route: '/order', request: { url, headers: {} } as Parameters<typeof renderPage>[0]['request'], answers: {} });
};

describe('the pages kept', () => {
  it('are the 64 last used: a page used again stays, a page dropped from them is drawn again', async () => {
    const page = await rendererFor({ rendersPerSecond: 1_000 });
    const firstDrawn = () => calls().filter((c) => c === '/order?first').length;
    await page('/order?first');
    for (let i = 0; i < 63; i += 1) await page(`/order?page=${i}`);
    await page('/order?first');
    // One more page: the one dropped is the least recently used (page=0), not the first drawn.
    await page('/order?page=63');
    await page('/order?first');
    expect(firstDrawn()).toBe(1);
    for (let i = 64; i < 128; i += 1) await page(`/order?page=${i}`);
    await page('/order?first');
    expect(firstDrawn()).toBe(2);
  });
});

describe('the renders a second', () => {
  it('are bounded: beyond them a page goes undrawn until the next second, and cached pages still come drawn', async () => {
    const app = await start();
    let at = 1_000_000;
    const renderPage = createPageRenderer({
      entryFile: path.join(dist, 'ssr', 'entry-server.js'),
      log: app.log,
      rendersPerSecond: 3,
      now: () => at,
    });
    const page = (url: string) =>
      renderPage({ route: '/order', request: { url, headers: {} } as Parameters<typeof renderPage>[0]['request'], answers: {} });
    for (const i of [1, 2, 3]) expect(await page(`/order?n=${i}`)).toContain(`drawn /order?n=${i}`);
    expect(await page('/order?n=4')).toBeNull();
    expect(await page('/order?n=1')).toContain('drawn /order?n=1');
    at += 1_000;
    expect(await page('/order?n=4')).toContain('drawn /order?n=4');
  });
});
