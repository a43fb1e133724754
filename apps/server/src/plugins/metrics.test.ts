import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { buildTestApp, createTestClock, createTestDb, type TestApp } from '../testing/build-test-app';
import { insertCustomer } from '../testing/factories';
import { startMetricsServer } from './metrics';

/** Prometheus metrics, off the public port or behind a token (ADR 0033). */

const TOKEN = 'metrics-token-0123456789abcdef';
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

let app: FastifyInstance;
let t: TestApp;

beforeAll(async () => {
  const { db, drop } = await createTestDb();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'metrics-secret-metrics-secret-0123456789',
    METRICS_TOKEN: TOKEN,
  });
  const clock = createTestClock();
  app = await buildApp({ config, db, clock, serveWeb: false });
  t = {
    app,
    db,
    clock,
    config,
    close: async () => {
      await app.close();
      await drop();
    },
  };
  app.get('/api/test/boom', async () => {
    throw new Error('boom');
  });
  await app.ready();
});
afterAll(async () => {
  await t?.close();
});

const scrape = (authorization?: string) => app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

describe('/metrics on the main port', () => {
  it('answers only to the bearer token', async () => {
    expect((await scrape()).statusCode).toBe(401);
    expect((await scrape(`Bearer ${TOKEN}x`)).statusCode).toBe(401);
    expect((await scrape(TOKEN)).statusCode).toBe(401);
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('counts requests and their latency per route pattern, never per raw URL, and 5xx answers as errors', async () => {
    for (let i = 0; i < 3; i++) await app.inject({ method: 'PUT', url: '/api/en/sites/categories/1/orders/calcs', payload: CALC_BODY });
    const { token } = await insertCustomer(t, `metrics-${Date.now()}@example.com`);
    await app.inject({ method: 'GET', url: '/api/en/orders/987654', headers: { authorization: `Bearer ${token}` } });
    await app.inject({ method: 'GET', url: '/api/en/auth/magic_link/secret-link-token-abc' });
    await app.inject({ method: 'GET', url: '/no/such/page/424242' });
    await app.inject({ method: 'GET', url: '/api/test/boom' });

    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(text).toMatch(
      /^http_request_duration_seconds_count\{method="PUT",route="\/api\/en\/sites\/categories\/:category\/orders\/calcs",status_code="200"\} 3$/m,
    );
    expect(text).toMatch(
      /^http_request_duration_seconds_bucket\{le="0.005",method="PUT",route="\/api\/en\/sites\/categories\/:category\/orders\/calcs",status_code="200"\} \d+$/m,
    );
    expect(text).toMatch(/route="\/api\/en\/orders\/:id",status_code="\d{3}"/);
    expect(text).toMatch(/route="\/api\/en\/auth\/magic_link\/:token",status_code="404"/);
    expect(text).toMatch(/route="\(unmatched\)",status_code="404"/);
    expect(text).toMatch(/^http_request_errors_total\{method="GET",route="\/api\/test\/boom",status_code="500"\} 1$/m);
    for (const raw of ['987654', 'secret-link-token-abc', '424242']) expect(text).not.toContain(raw);
  });

  it('reports the database pool, open connections and the event-loop lag', async () => {
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(text).toMatch(/^db_pool_connections [1-9]\d*$/m);
    expect(text).toMatch(/^db_pool_idle_connections \d+$/m);
    expect(text).toMatch(/^db_pool_waiting_queries \d+$/m);
    expect(text).toMatch(/^http_open_connections \d+$/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_p99_seconds \d/m);
  });
});

describe('metrics off, and on a port of their own', () => {
  it('are not served on the main port without METRICS_TOKEN', async () => {
    const other = await buildTestApp();
    try {
      expect(other.app.metrics).toBeUndefined();
      expect((await other.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await other.close();
    }
  });

  it('are served on METRICS_PORT (loopback by default) and not on the main port', async () => {
    const other = await buildTestApp({ env: { METRICS_PORT: '0' } });
    expect(other.config.metrics.host).toBe('127.0.0.1');
    const registry = other.app.metrics;
    if (!registry) throw new Error('metrics should be on');
    const { server, port } = await startMetricsServer(registry, { port: 0, host: other.config.metrics.host });
    try {
      await other.app.inject({ method: 'GET', url: '/healthz' });
      expect((await other.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} 1$/m);
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await other.close();
    }
  });
});
