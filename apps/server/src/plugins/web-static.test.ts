import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { createTestClock, createTestDb } from '../testing/build-test-app';

let app: FastifyInstance;
let drop: () => Promise<void>;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<html><head><meta name="csp-nonce" content="__CSP_NONCE__" /></head><body>app</body></html>');
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.info("app")');
  const testDb = await createTestDb();
  drop = testDb.drop;
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', JWT_SECRET: 'web-static-secret-web-static-secret-0123', WEB_DIST_DIR: dist });
  app = await buildApp({ config, db: testDb.db, clock: createTestClock(), serveWeb: true });
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
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self';");
    const again = await app.inject({ method: 'GET', url: '/dashboard' });
    expect(again.body).not.toContain(nonce);
  });

  it('answers the root `/` with the app too, not a 403 for the build folder (issue 8)', async () => {
    const res = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('<body>app</body>');
    expect((await app.inject({ method: 'GET', url: '/assets/' })).statusCode).toBe(200);
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
