import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Registry } from 'prom-client';
import type { Db } from '../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Prometheus registry, when metrics are on (METRICS_PORT or METRICS_TOKEN). */
    metrics: Registry | undefined;
  }
}

/** Seconds; from a cached catalogue answer (about 1 ms) to a slow upload. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** The route label of an answer no route matched (a 404, or a request refused before routing). */
export const UNMATCHED_ROUTE = '(unmatched)';

const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * Prometheus metrics (ADR 0033): request count and latency per route pattern (never the raw URL, so no
 * id and no token becomes a label), 5xx answers, the database pool, open HTTP connections and
 * prom-client's process set (event-loop lag, heap, GC, handles). Off unless configured, so the hot path
 * pays for the one onResponse hook only where someone reads it. `token` also serves `/metrics` on this
 * (public) port, to `Authorization: Bearer <token>` only.
 */
export const registerMetrics = async (app: FastifyInstance, { db, token }: { db: Db; token: string | undefined }): Promise<Registry> => {
  // prom-client is loaded only when metrics are on (ADR 0058).
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = await import('prom-client');
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from the request to the last byte of the answer, per route pattern',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'http_request_errors_total',
    help: 'Answers with a 5xx status, per route pattern',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const poolGauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read());
      },
    });
  poolGauge('db_pool_connections', 'Database connections open (PGlite: its one connection)', () => db.pool().total);
  poolGauge('db_pool_idle_connections', 'Database connections open and idle', () => db.pool().idle);
  poolGauge('db_pool_waiting_queries', 'Queries waiting for a database connection', () => db.pool().waiting);
  new Gauge({
    name: 'http_open_connections',
    help: 'HTTP connections open on the main port',
    registers: [registry],
    async collect() {
      const server = app.server;
      if (!server.listening) return this.set(0);
      this.set(await new Promise<number>((resolve) => server.getConnections((error, count) => resolve(error ? 0 : count))));
    },
  });

  app.addHook('onResponse', (request, reply, done) => {
    const labels = { method: request.method, route: request.routeOptions.url ?? UNMATCHED_ROUTE, status_code: reply.statusCode };
    duration.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) errors.inc(labels);
    done();
  });

  if (token) {
    const expected = sha256(`Bearer ${token}`);
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const given = sha256(request.headers.authorization ?? '');
      if (!timingSafeEqual(given, expected)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send({ message: 'Unauthorized' });
      }
      return reply
        .header('cache-control', 'no-store')
        .type(registry.contentType)
        .send(await registry.metrics());
    });
  }
  return registry;
};

/** `GET /metrics` on a listener of its own (METRICS_PORT, by default on 127.0.0.1 only). */
export const startMetricsServer = async (
  registry: Registry,
  { port, host }: { port: number; host: string },
): Promise<{ server: Server; port: number }> => {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' }).end(text),
      (error: unknown) =>
        response.writeHead(500, { 'content-type': 'text/plain' }).end(`${error instanceof Error ? error.message : 'error'}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { server, port: (server.address() as AddressInfo).port };
};
