import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { loadConfig } from './config';
import { APP_LOADER_HASH } from './plugins/app-loader';
import { EARLY_REQUESTS_HASH } from './plugins/early-requests';
import { THEME_BOOT_HASH } from './plugins/theme-boot';
import { createTestClock, createTestDb } from './testing/build-test-app';

let app: FastifyInstance;
let drop: () => Promise<void>;

beforeAll(async () => {
  const testDb = await createTestDb();
  drop = testDb.drop;
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', JWT_SECRET: 'app-test-secret-app-test-secret-0123456789' });
  app = await buildApp({ config, db: testDb.db, clock: createTestClock(), serveWeb: false });
  // A route that fails the way a bug would: a plain Error carrying internals.
  app.get('/api/test/boom', async () => {
    throw new Error('relation "secret_table" does not exist at /srv/app/orders.repo.ts:42');
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await drop();
});

describe('security headers', () => {
  it('sends the API a policy that lets nothing load or frame its answers', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/en/sites/settings' });
    expect(res.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('sends pages a strict Content-Security-Policy: scripts from our origin only, no inline script but the app loader, no framing', async () => {
    const res = await app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    const directives = Object.fromEntries(
      csp.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values];
      }),
    );
    // The one inline script, the drawn pages' app loader, by its hash (ADR 0065).
    // ADR 0094 the theme's pre-paint, ADR 0100 a signed-in page's first requests: each by its hash.
    expect(directives['script-src']).toEqual(["'self'", APP_LOADER_HASH, THEME_BOOT_HASH, EARLY_REQUESTS_HASH]);
    expect(directives['style-src']).toEqual(["'self'"]);
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBeDefined();
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});

describe('errors', () => {
  it('answers an unknown /api route with 404 JSON', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/en/no/such/route' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ message: expect.any(String) });
  });

  it('answers an unexpected error with 500 and a generic message, no stack and no internals', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal Server Error' });
    expect(res.body).not.toContain('secret_table');
    expect(res.body).not.toContain('stack');
  });
});

describe('OpenAPI document', () => {
  it('is served at /api/docs/json and describes the catalogue and order paths', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/en/sites/settings',
      '/api/en/sites/categories/{category}/orders/work_types',
      '/api/en/sites/categories/{category}/orders/assignments',
      '/api/en/sites/categories/{category}/orders/subjects',
      '/api/en/sites/categories/{category}/orders/paper_formats',
      '/api/en/sites/categories/{category}/orders/calcs',
      '/api/en/sites/{idSite}/orders/urgencies',
      '/api/en/orders/resume_services',
      '/api/en/orders/academic_levels',
      '/api/en/orders/resume_levels',
      '/api/en/orders/thesis_levels',
      '/api/en/orders/count',
      '/healthz',
    ]) {
      expect(doc.paths[path]?.get, path).toBeDefined();
    }
  });
});
