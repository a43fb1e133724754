import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createTestClock, createTestDb } from '../testing/build-test-app';
import { API_SECURITY_HEADERS, CSP_DIRECTIVES, isApiPath, SECURITY_HEADERS, useStyleNonce } from './security';

/**
 * ADR 0026: the app sends precomputed security headers instead of running @fastify/helmet on every
 * request. The reference for pages and static files is helmet itself with the options the app used to
 * give it; the JSON API gets the OWASP REST set, with a policy that lets nothing load or frame it.
 */

/** Headers about the body or the connection, not security: left out of the comparison. */
const NOT_SECURITY = new Set([
  'date',
  'connection',
  'keep-alive',
  'content-type',
  'content-length',
  'cache-control',
  'etag',
  'last-modified',
  'accept-ranges',
  'retry-after',
  'vary',
  'content-encoding',
]);
const security = (headers: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !NOT_SECURITY.has(name))
      .map(([name, value]) => [name, String(value).replace(/'nonce-[0-9a-f]{32}'/, "'nonce-N'")]),
  );

let reference: FastifyInstance;
let app: FastifyInstance;
let drop: () => Promise<void>;
let dist: string;

const CALC_BODY = {
  idWorkType: 1,
  academicLevel: 2,
  pages: 2,
  idSpacing: 2,
  urgency: 240,
  premiumWriter: 1,
  originalityReport: 1,
  extraQualityCheck: 1,
  onePageSummary: 1,
};

beforeAll(async () => {
  reference = Fastify({ logger: false });
  await reference.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: CSP_DIRECTIVES as Record<string, string[]> },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
  });
  reference.get('/json', async () => ({ ok: true }));
  reference.get('/html', async (_request, reply) => {
    const nonce = useStyleNonce(reply);
    return reply.type('text/html; charset=utf-8').send(`<style nonce="${nonce}"></style>`);
  });
  await reference.ready();

  dist = mkdtempSync(path.join(os.tmpdir(), 'security-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(
    path.join(dist, 'index.html'),
    '<html><head><meta name="csp-nonce" content="__CSP_NONCE__" /></head><body>app</body></html>',
  );
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.info("app")');
  const testDb = await createTestDb();
  drop = testDb.drop;
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'security-secret-security-secret-0123456789',
    WEB_DIST_DIR: dist,
  });
  app = await buildApp({ config, db: testDb.db, clock: createTestClock(), serveWeb: true });
  app.get('/api/test/boom', async () => {
    throw new Error('boom');
  });
  await app.ready();
});
afterAll(async () => {
  await reference?.close();
  await app?.close();
  await drop?.();
  if (dist) rmSync(dist, { recursive: true, force: true });
});

describe('security headers (ADR 0026)', () => {
  it('are what helmet sends with the same options', async () => {
    const res = await reference.inject({ method: 'GET', url: '/json' });
    expect(security(res.headers)).toEqual(SECURITY_HEADERS);
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('on every kind of API answer are the API set: nothing loads, nothing frames, no sniffing', async () => {
    const answers = await Promise.all([
      app.inject({ method: 'PUT', url: '/api/en/sites/categories/1/orders/calcs', payload: CALC_BODY }),
      app.inject({ method: 'PUT', url: '/api/en/sites/categories/1/orders/calcs', payload: { pages: 'x' } }),
      app.inject({
        method: 'PUT',
        url: '/api/en/sites/categories/1/orders/calcs',
        headers: { 'content-type': 'application/json' },
        payload: '{"pages":',
      }),
      app.inject({ method: 'GET', url: '/api/en/sites/settings' }),
      app.inject({ method: 'GET', url: '/api/en/no/such/route' }),
      app.inject({ method: 'GET', url: '/api/test/boom' }),
      app.inject({ method: 'GET', url: '/api/en/customers/customer' }),
      app.inject({ method: 'POST', url: '/api/checkmail', payload: { email: 'headers@example.com' } }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 422, 400, 200, 404, 500, 401, 200]);
    for (const res of answers) expect(security(res.headers)).toEqual(API_SECURITY_HEADERS);
  });

  it('outside /api (a static file, the health check) are equal to helmet’s', async () => {
    const expected = security((await reference.inject({ method: 'GET', url: '/json' })).headers);
    const answers = await Promise.all([
      app.inject({ method: 'GET', url: '/assets/app-abc123.js' }),
      app.inject({ method: 'GET', url: '/healthz' }),
    ]);
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200]);
    for (const res of answers) expect(security(res.headers)).toEqual(expected);
  });

  it('tell API paths from pages by the /api/ prefix, the OpenAPI page excepted', () => {
    expect(['/api/en/orders', '/api/checkmail', '/api/payments/paypal/callback?x=1'].every(isApiPath)).toBe(true);
    expect(['/api/docs', '/api/docs/json', '/order', '/apix', '/sandbox/paypal/p1', '/assets/a.js'].some(isApiPath)).toBe(false);
  });

  it('on an HTML answer carry the style nonce, equal to helmet’s with useStyleNonce', async () => {
    const expected = security((await reference.inject({ method: 'GET', url: '/html' })).headers);
    expect(expected['content-security-policy']).toContain("style-src 'self' 'nonce-N';");
    const res = await app.inject({ method: 'GET', url: '/dashboard' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(security(res.headers)).toEqual(expected);
  });
});
