import { loadConfig, loadEnvFile } from './config';
import { openDatabase } from './db/open';
import { buildApp } from './app';

/** config -> database (migrated, seeded) -> buildApp -> listen; a graceful close on SIGINT/SIGTERM. */
const main = async (): Promise<void> => {
  const startedAt = performance.now();
  loadEnvFile();
  const config = loadConfig();
  const { db, release } = await openDatabase(config);
  const app = await buildApp({ config, db });
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await db.close();
    } finally {
      release();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    { database: db.kind, ms: Math.round(performance.now() - startedAt) },
    `ready on http://localhost:${config.port} (${db.kind === 'pglite' ? `embedded PostgreSQL in ${config.dataDir}` : 'PostgreSQL server'})`,
  );
};

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
