import type { FastifyInstance } from 'fastify';
import { loadConfig, loadEnvFile } from './config';
import { DataDirLockedError } from './db/data-dir-lock';
import { openDatabase } from './db/open';
import { serveSnapshots } from './db/snapshot';
import { buildApp } from './app';
import { exitOnFatalErrors, logFatal, shutdown, trackConnections, type Closer } from './lifecycle';
import { startMetricsServer } from './plugins/metrics';

/**
 * config -> database (migrated, seeded) -> buildApp -> listen (and the metrics listener). SIGINT/SIGTERM
 * shut down gracefully within SHUTDOWN_TIMEOUT_MS; a fatal error is logged with its stack and exits 1.
 */
let app: FastifyInstance | undefined;
exitOnFatalErrors(
  () => app?.log,
  (code) => process.exit(code),
);

const main = async (): Promise<void> => {
  const startedAt = performance.now();
  loadEnvFile();
  const config = loadConfig();
  const { db, release } = await openDatabase(config);
  const server = await buildApp({ config, db });
  app = server;
  const connections = trackConnections(server.server);
  const closers: Closer[] = [];
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    const code = await shutdown({ app: server, closers, timeoutMs: config.shutdownTimeoutMs, signal, closeIdle: connections.closeIdle });
    release();
    process.exit(code);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));

  if (server.metrics && config.metrics.port !== undefined) {
    const metrics = await startMetricsServer(server.metrics, { port: config.metrics.port, host: config.metrics.host });
    closers.push({
      name: 'metrics listener',
      close: () => new Promise((resolve, reject) => metrics.server.close((e) => (e ? reject(e) : resolve()))),
    });
    server.log.info(`metrics on http://${config.metrics.host}:${metrics.port}/metrics`);
  }
  if (db.snapshotDataDir) {
    // ADR 0082: `npm run ops -- backup` asks this process for a consistent copy of the embedded database.
    const snapshots = await serveSnapshots(db, config.dataDir);
    closers.push({ name: 'snapshot socket', close: () => snapshots.close() });
  }
  closers.push({ name: 'database', close: () => db.close() });
  await server.listen({ port: config.port, host: config.host });
  server.log.info(
    { database: db.kind, ms: Math.round(performance.now() - startedAt) },
    `ready on http://localhost:${config.port} (${db.kind === 'pglite' ? `embedded PostgreSQL in ${config.dataDir}` : 'PostgreSQL server'})`,
  );
};

main().catch((error: unknown) => {
  // A configuration error is a sentence for the operator; anything else gets its stack.
  if (error instanceof DataDirLockedError || (error instanceof Error && error.message.startsWith('Invalid configuration')))
    console.error(error.message);
  else logFatal(app?.log, error, 'could not start');
  process.exit(1);
});
