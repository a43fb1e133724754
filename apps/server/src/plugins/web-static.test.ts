import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATH, EARLY_REQUESTS_ELEMENT_ID, INLINE_ANSWERS_ELEMENT_ID, LATER_CODE_ELEMENT_ID, SESSION_HINT_COOKIE } from '@app/domain';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createTestClock, createTestDb } from '../testing/build-test-app';
import { EARLY_REQUESTS, EARLY_REQUESTS_HASH } from './early-requests';
import { THEME_BOOT, THEME_BOOT_HASH } from './theme-boot';

let app: FastifyInstance;
let testDb: Awaited<ReturnType<typeof createTestDb>>;
const clock = createTestClock();
let drop: () => Promise<void>;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(
    path.join(dist, 'index.html'),
    '<html><head><meta name="csp-nonce" content="__CSP_NONCE__" /></head><body>app</body></html>',
  );
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.info("app")');
  // What the build writes next to each file (apps/web/vite.config.ts), and its manifest of chunks.
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), brotliCompressSync('console.info("app")'));
  mkdirSync(path.join(dist, '.vite'));
  writeFileSync(
    path.join(dist, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: 'assets/app-abc123.js', isEntry: true },
      'src/app/routes/order.tsx': {
        file: 'assets/order-o1.js',
        imports: ['_wizard.js', 'index.html'],
        dynamicImports: ['src/step-checkout.tsx'],
      },
      '_wizard.js': { file: 'assets/wizard-w1.js', dynamicImports: ['src/dialog.tsx'] },
      'src/step-checkout.tsx': { file: 'assets/step-checkout-c1.js', imports: ['_phone.js', '_wizard.js'] },
      '_phone.js': { file: 'assets/phone-p1.js' },
      'src/dialog.tsx': { file: 'assets/dialog-d1.js' },
      'src/app/routes/login.tsx': { file: 'assets/login-l1.js' },
      'src/app/routes/not-found.tsx': { file: 'assets/not-found-n1.js' },
      // ADR 0100: the daily signed-in pages in one chunk with others, found through route-chunks.json;
      // ADR 0101: each page's own chunk, the shell's shared one, and what they import later.
      '_customer-c1.js': { file: 'assets/customer-c1.js', imports: ['_customer-shared-s1.js', 'index.html'] },
      '_customer-shared-s1.js': { file: 'assets/customer-shared-s1.js', dynamicImports: ['_customer-later-x1.js'] },
      '_customer-later-x1.js': { file: 'assets/customer-later-x1.js', imports: ['_customer-shared-s1.js'] },
      '_customer-orderinfo-i1.js': { file: 'assets/customer-orderinfo-i1.js', imports: ['_customer-shared-s1.js', 'index.html'] },
      '_customer-loyalty-y1.js': { file: 'assets/customer-loyalty-y1.js', imports: ['_customer-shared-s1.js'] },
    }),
  );
  writeFileSync(
    path.join(dist, '.vite', 'route-chunks.json'),
    JSON.stringify({
      dashboard: 'assets/customer-c1.js',
      'order-info': 'assets/customer-orderinfo-i1.js',
      loyalty: 'assets/customer-loyalty-y1.js',
      order: 'assets/order-o1.js',
    }),
  );
  writeFileSync(path.join(dist, 'terms.md'), '# Our <b>terms</b>\n\nFirst **rule**.\n\n- one\n- two [more](/privacy)\n');
  testDb = await createTestDb();
  drop = testDb.drop;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'web-static-secret-web-static-secret-0123',
    WEB_DIST_DIR: dist,
    TERMS_FILE: path.join(dist, 'terms.md'),
  });
  app = await buildApp({ config, db: testDb.db, clock, serveWeb: true });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await drop();
  rmSync(dist, { recursive: true, force: true });
});

describe('the SPA is served from the same origin (CONTRACT "Serving")', () => {
  it('answers a client route with index.html carrying this response’s style nonce', async () => {
    const res = await app.inject({ method: 'GET', url: '/dashboard?x=1' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    const nonce = /content="([0-9a-f]{32})"/.exec(res.body)?.[1];
    expect(nonce).toBeDefined();
    expect(String(res.headers['content-security-policy'])).toContain(`style-src 'self' 'nonce-${nonce}'`);
    // No script by nonce: the inline scripts (a drawn page's loader, ADR 0065; the theme's pre-paint, ADR 0094;
    // a signed-in page's early requests, ADR 0100) are allowed by their hashes.
    expect(String(res.headers['content-security-policy'])).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*'){3};/);
    const again = await app.inject({ method: 'GET', url: '/dashboard' });
    expect(again.body).not.toContain(nonce);
  });

  it('answers the root `/` with the app too, not a 403 for the build folder (ADR 0041)', async () => {
    const res = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<body>app</body>');
    // A folder is no page of the app: the app's 404 page (ADR 0041), never 403 Forbidden.
    expect((await app.inject({ method: 'GET', url: '/assets/' })).statusCode).toBe(404);
  });

  it('serves hashed assets with a long cache, including files built after start', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    writeFileSync(path.join(dist, 'assets', 'later-def456.js'), 'console.info("later")');
    expect((await app.inject({ method: 'GET', url: '/assets/later-def456.js' })).statusCode).toBe(200);
  });

  it('answers unknown API paths with a JSON 404, not the app', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/en/nothing-here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
  });

  it('does not serve files outside the build folder', async () => {
    const res = await app.inject({ method: 'GET', url: '/../../package.json' });
    expect(res.body).not.toContain('"workspaces"');
  });
});

/** The JSON the page carries for the web app's first calls (ADR 0040). */
const inlineAnswers = (html: string): Record<string, unknown> => {
  const json = new RegExp(`<script type="application/json" id="${INLINE_ANSWERS_ELEMENT_ID}">(.*?)</script>`, 's').exec(html)?.[1];
  expect(json).toBeDefined();
  return JSON.parse(json ?? '{}') as Record<string, unknown>;
};

describe('pages, 404s and HEAD (ADR 0041, 0040)', () => {
  it('answers / with the app (it was 403 Forbidden)', async () => {
    const res = await app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<body>app</body>');
  });

  it('answers every app route with 200 and any other page path with the app and status 404', async () => {
    for (const url of [
      '/order',
      '/order?full',
      '/order/',
      '/login',
      '/dashboard',
      '/orderinfo',
      '/orderinfo/12',
      '/orderinfo/12/files',
      '/reset-password?token=x',
      '/logout',
    ]) {
      const res = await app.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 200]);
    }
    for (const url of ['/nothing-here', '/order/x/y/z', '/dashboard/1', '/404', '/wp-admin']) {
      const res = await app.inject({ method: 'GET', url });
      expect([url, res.statusCode]).toEqual([url, 404]);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<body>app</body>');
    }
  });

  it('answers a missing file with a plain 404, not the app', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/gone-123.js' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).not.toContain('text/html');
    expect((await app.inject({ method: 'GET', url: '/assets/' })).statusCode).toBe(404);
  });

  it('answers HEAD wherever GET answers, with the same status and no body', async () => {
    for (const [url, status] of [
      ['/', 200],
      ['/order', 200],
      ['/orderinfo/5/details', 200],
      ['/staff', 200],
      ['/staff/orders/12', 200],
      ['/staff/money', 200],
      ['/staff/elsewhere', 404],
      ['/assets/app-abc123.js', 200],
      ['/robots.txt', 200],
      ['/terms', 200],
      ['/privacy', 200],
      ['/healthz', 200],
      ['/api/en/sites/settings', 200],
      ['/api/en/orders/academic_levels', 200],
      ['/nothing-here', 404],
    ] as const) {
      const res = await app.inject({ method: 'HEAD', url });
      expect([url, res.statusCode]).toEqual([url, status]);
      expect(res.body).toBe('');
    }
  });

  it('keeps the signed-in pages out of search engines (robots.txt)', async () => {
    const res = await app.inject({ method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    for (const p of ['/dashboard', '/orderinfo', '/profile', '/transactions', '/loyalty', '/staff'])
      expect(res.body).toContain(`Disallow: ${p}\n`);
    expect(res.body).not.toMatch(/Disallow: \/order\n|Disallow: \/\n|Disallow: \/login/);
  });
});

describe('the page carries its first answers and its code (ADR 0040)', () => {
  it('/order carries the settings, the first category’s lists, urgencies and price tables, equal to the API’s answers', async () => {
    const res = await app.inject({ method: 'GET', url: '/order' });
    const answers = inlineAnswers(res.body);
    const settings = (await app.inject({ method: 'GET', url: '/api/en/sites/settings', headers: { host: 'localhost:80' } })).json<{
      idSite: number;
      siteCategories: number[];
    }>();
    const category = settings.siteCategories[0];
    const paths = [
      '/api/en/sites/settings',
      `/api/en/sites/categories/${category}/orders/work_types`,
      `/api/en/sites/categories/${category}/orders/assignments`,
      `/api/en/sites/categories/${category}/orders/subjects`,
      `/api/en/sites/categories/${category}/orders/paper_formats`,
      `/api/en/sites/categories/${category}/orders/calcs`,
      '/api/en/orders/academic_levels',
      `/api/en/sites/${settings.idSite}/orders/urgencies`,
    ];
    expect(Object.keys(answers).sort()).toEqual([...paths].sort());
    for (const p of paths) {
      const api = await app.inject({ method: 'GET', url: p, headers: { host: 'localhost:80' } });
      expect([p, answers[p]]).toEqual([p, api.json()]);
    }
  });

  it('are kept no longer than the API lets caches keep them (max-age=60)', async () => {
    const urgenciesOf = async () => {
      const answers = inlineAnswers((await app.inject({ method: 'GET', url: '/order' })).body);
      const key = Object.keys(answers).find((k) => k.endsWith('/orders/urgencies')) ?? '';
      return answers[key] as { id: number; name: string }[];
    };
    const before = await urgenciesOf();
    const first = before[0];
    if (!first) throw new Error('no urgencies seeded');
    await testDb.db.query('UPDATE urgencies SET name = $1 WHERE id = $2', ['Renamed for the cache test', first.id]);
    clock.advance(59_000);
    expect((await urgenciesOf())[0]?.name).toBe(first.name);
    clock.advance(2_000);
    expect((await urgenciesOf()).find((u) => u.id === first.id)?.name).toBe('Renamed for the cache test');
    await testDb.db.query('UPDATE urgencies SET name = $1 WHERE id = $2', [first.name, first.id]);
    clock.advance(61_000);
  });

  it('other pages carry the settings only; the JSON cannot close its element early', async () => {
    const res = await app.inject({ method: 'GET', url: '/login' });
    expect(Object.keys(inlineAnswers(res.body))).toEqual(['/api/en/sites/settings']);
    const script = res.body.slice(res.body.indexOf(`id="${INLINE_ANSWERS_ELEMENT_ID}">`));
    expect(script.slice(0, script.indexOf('</script>'))).not.toContain('<');
  });

  it('preloads the page’s route module and its chunks, not the entry again; prefetches what they import later', async () => {
    const order = (await app.inject({ method: 'GET', url: '/order' })).body;
    expect(order).toContain('<link rel="modulepreload" crossorigin href="/assets/order-o1.js">');
    expect(order).toContain('<link rel="modulepreload" crossorigin href="/assets/wizard-w1.js">');
    const later = new RegExp(`<script type="application/json" id="${LATER_CODE_ELEMENT_ID}">(.*?)</script>`).exec(order)?.[1];
    expect(JSON.parse(later ?? 'null')).toEqual(['/assets/step-checkout-c1.js', '/assets/phone-p1.js', '/assets/dialog-d1.js']);
    expect(order).not.toContain('rel="prefetch"');
    expect(order).not.toContain('href="/assets/app-abc123.js"');
    expect((await app.inject({ method: 'GET', url: '/login' })).body).toContain('href="/assets/login-l1.js"');
    expect((await app.inject({ method: 'GET', url: '/nope' })).body).toContain('href="/assets/not-found-n1.js"');
  });

  it('preloads a signed-in page merged into a chunk with others (ADR 0100) through the route-chunks file', async () => {
    const page = (await app.inject({ method: 'GET', url: '/dashboard', headers: { cookie: `${SESSION_HINT_COOKIE}=1` } })).body;
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/customer-c1.js">');
    expect(page).toContain('<link rel="modulepreload" crossorigin href="/assets/customer-shared-s1.js">');
    expect(page).not.toContain('href="/assets/app-abc123.js"');
  });

  it('has a daily page draw with its own code and prefetch the other daily pages’ code once drawn (ADR 0101)', async () => {
    const laterOf = (body: string): unknown =>
      JSON.parse(new RegExp(`<script type="application/json" id="${LATER_CODE_ELEMENT_ID}">(.*?)</script>`).exec(body)?.[1] ?? 'null');
    const hint = { cookie: `${SESSION_HINT_COOKIE}=1` };
    const dashboard = (await app.inject({ method: 'GET', url: '/dashboard', headers: hint })).body;
    expect(dashboard).not.toContain('modulepreload" crossorigin href="/assets/customer-orderinfo-i1.js"');
    expect(laterOf(dashboard)).toEqual([
      '/assets/customer-later-x1.js',
      '/assets/customer-orderinfo-i1.js',
      '/assets/customer-loyalty-y1.js',
    ]);
    const order = (await app.inject({ method: 'GET', url: '/orderinfo/17/details', headers: hint })).body;
    expect(order).toContain('<link rel="modulepreload" crossorigin href="/assets/customer-orderinfo-i1.js">');
    expect(laterOf(order)).toEqual(['/assets/customer-later-x1.js', '/assets/customer-c1.js', '/assets/customer-loyalty-y1.js']);
    // Not a visitor's page: /order's later code stays its own.
    expect(laterOf((await app.inject({ method: 'GET', url: '/order' })).body)).not.toContain('/assets/customer-c1.js');
  });
});

describe('a signed-in page asks for its first answers itself (ADR 0100)', () => {
  const early = (body: string): unknown =>
    JSON.parse(new RegExp(`<script type="application/json" id="${EARLY_REQUESTS_ELEMENT_ID}">(.*?)</script>`).exec(body)?.[1] ?? 'null');

  it('lists the customer and the page’s data, with the script that asks for them, allowed by its hash', async () => {
    const hint = { cookie: `${SESSION_HINT_COOKIE}=1` };
    const dashboard = await app.inject({ method: 'GET', url: '/dashboard?status=2', headers: hint });
    const paths = early(dashboard.body) as string[];
    expect(paths.slice(0, 2)).toEqual([API_PATH.customer, API_PATH.orderCount]);
    expect(paths[2]).toMatch(/^\/api\/en\/sites\/categories\/\d+\/orders\?limit=12&page=1&status=2$/);
    expect(dashboard.body).toContain(`<script>${EARLY_REQUESTS}</script>`);
    expect(String(dashboard.headers['content-security-policy'])).toContain(EARLY_REQUESTS_HASH);
    const order = await app.inject({ method: 'GET', url: '/orderinfo/17/messages', headers: hint });
    expect(early(order.body)).toEqual([API_PATH.customer, API_PATH.order(17)]);
  });

  it('lists nothing without the session hint, nor on a visitor’s page', async () => {
    expect(early((await app.inject({ method: 'GET', url: '/dashboard' })).body)).toBeNull();
    const order = await app.inject({ method: 'GET', url: '/order', headers: { cookie: `${SESSION_HINT_COOKIE}=1` } });
    expect(early(order.body)).toBeNull();
    expect(order.body).not.toContain(EARLY_REQUESTS);
  });
});

describe('compression (ADR 0040)', () => {
  it('serves a built file precompressed when the browser accepts brotli, as it is otherwise', async () => {
    const br = await app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.info("app")');
    const plain = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.info("app")');
  });

  it('compresses API answers of 1 KiB or more (brotli or gzip), leaves small ones as they are', async () => {
    const url = '/api/en/sites/categories/1/orders/calcs';
    const plain = await app.inject({ method: 'GET', url });
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());
    const gzip = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
    const small = await app.inject({ method: 'GET', url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
  });

  it('compresses the pages', async () => {
    const res = await app.inject({ method: 'GET', url: '/order', headers: { 'accept-encoding': 'br' } });
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toContain('<body>app</body>');
  });
});

describe('/terms and /privacy (ADR 0041)', () => {
  it('render the operator’s file (TERMS_FILE) as HTML, escaped', async () => {
    const res = await app.inject({ method: 'GET', url: '/terms' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<h1>Our &lt;b&gt;terms&lt;/b&gt;</h1>');
    expect(res.body).toContain('<p>First <strong>rule</strong>.</p>');
    expect(res.body).toContain('<ul><li>one</li><li>two <a href="/privacy">more</a></li></ul>');
    expect(res.body).not.toContain('<b>');
    const nonce = /<style nonce="([0-9a-f]{32})">/.exec(res.body)?.[1];
    expect(String(res.headers['content-security-policy'])).toContain(`'nonce-${nonce}'`);
  });

  it('follow the customer’s colour scheme: the pre-paint script in the head, allowed by its hash (ADR 0094)', async () => {
    const res = await app.inject({ method: 'GET', url: '/terms' });
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head).toContain(`<script>${THEME_BOOT}</script>`);
    expect(head).toContain('<meta name="color-scheme" content="light dark">');
    expect(String(res.headers['content-security-policy'])).toContain(THEME_BOOT_HASH);
  });

  it('fall back to the default text shipped in apps/server/legal', async () => {
    const res = await app.inject({ method: 'GET', url: '/privacy' });
    expect(res.statusCode).toBe(200);
    const shipped = readFileSync(path.join(import.meta.dirname, '../../legal/privacy.md'), 'utf8');
    expect(shipped).toContain('# Privacy and Cookies Policy');
    expect(res.body).toContain('<h1>Privacy and Cookies Policy</h1>');
    expect(res.body).toContain('<title>Privacy and Cookies Policy · Writing Service</title>');
  });
});
