// ADR 0081: what the in-process page CPU benches share (bench/staff-page-cpu.mjs, bench/customer-page-cpu.mjs):
// a PostgreSQL database of their own, created, migrated and filled when missing; the app built as
// bench/scale-lists.mjs builds it (production config, LOG_LEVEL warn, the JWT guard with its liveness check,
// zod, the services); a dump of raw answers for a byte-for-byte comparison; and the measurement: each route
// called through `app.inject` N times one at a time after a warm-up, the process CPU (`process.cpuUsage()`,
// user + system) per request, the best of R rounds (a shared machine's noise only ever adds).
//
// Each bench reads its settings from the environment under its own prefix (STAFF_CPU_…, CUSTOMER_CPU_…):
// _DATABASE_URL, _RESEED=1 (fill the database again), _N (requests a route, default 1000), _ROUNDS (3),
// _ONLY (only the routes whose name contains it; the floor, the first route, is always measured),
// _PROFILE=/tmp/x.cpuprofile (a V8 CPU profile of each measured route: file name + route index + round),
// _DUMP=file (the bench's answers written, nothing measured).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();

const root = path.resolve(import.meta.dirname, '..');
/** A module of the server's sources (TypeScript, through tsx). */
export const server = (file) => import(pathToFileURL(path.join(root, 'apps/server/src', file)).href);
const pg = (await import('pg')).default;

const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';

/** The bench's settings from the environment, `${prefix}_…`. */
export const benchSettings = (prefix, defaultDatabase) => {
  const env = (name) => process.env[`${prefix}_${name}`];
  return {
    prefix,
    url: env('DATABASE_URL') || `postgres://postgres@127.0.0.1:5432/${defaultDatabase}`,
    reseed: env('RESEED') === '1',
    n: Number(env('N') ?? 1000),
    rounds: Number(env('ROUNDS') ?? 3),
    only: env('ONLY') ?? '',
    profile: env('PROFILE'),
    dump: env('DUMP'),
  };
};

/**
 * The bench's database: created when missing (or dropped and created again with _RESEED=1), migrated, and,
 * when new, seeded (the catalogues, no demo data) and filled by `fill(db)`, then analysed.
 */
export const prepareDatabase = async (settings, fill) => {
  const { postgresDb } = await server('db/client.ts');
  const { migrate } = await server('db/migrate.ts');
  const { seedDatabase } = await server('db/seed.ts');
  const { systemClock } = await server('lib/clock.ts');
  const name = new URL(settings.url).pathname.slice(1);
  if (!/^\w+$/.test(name) || ['test', 'scale'].includes(name)) {
    throw new Error(`${settings.prefix}_DATABASE_URL must name a database of its own`);
  }
  const adminUrl = new URL(settings.url);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0;
  if (exists && settings.reseed) await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
  const filling = !exists || settings.reseed;
  if (filling) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const setup = postgresDb(settings.url, { prepared: false, queryTimeoutMs: 0 });
  try {
    await migrate(setup);
    if (filling) {
      await seedDatabase(setup, { demo: false, clock: systemClock });
      await fill(setup);
      await setup.query('ANALYZE');
    }
  } finally {
    await setup.close();
  }
};

/** The app as production builds it, on the bench's database; `token(userId, role)` signs an access token. */
export const startApp = async (settings) => {
  const { buildApp } = await server('app.ts');
  const { loadConfig } = await server('config.ts');
  const { createAccessTokens } = await server('lib/jwt.ts');
  const { postgresDb } = await server('db/client.ts');
  const { systemClock } = await server('lib/clock.ts');
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: '0',
    HOST: '127.0.0.1',
    JWT_SECRET,
    SEED_DEMO: '0',
    PUBLIC_ORIGIN: 'https://bench.example.com',
    DATABASE_URL: settings.url,
  });
  const db = postgresDb(settings.url, { prepared: config.preparedStatements });
  const app = await buildApp({ config, db, serveWeb: false });
  await app.ready();
  const tokens = createAccessTokens(JWT_SECRET, systemClock);
  const bearer = async (userId, role) => ({ authorization: `Bearer ${await tokens.sign({ userId, role })}` });
  const close = async () => {
    await app.close();
    await db.close();
  };
  return { app, db, bearer, close };
};

/**
 * _DUMP: the raw answers of `requests` (`{ label, url, headers }`), one JSON line each (the label's fields,
 * the status, the content type, the body), for a before/after byte-for-byte comparison.
 */
export const dumpAnswers = async (app, file, requests) => {
  const lines = [];
  for (const { label, url, headers } of requests) {
    const res = await app.inject({ method: 'GET', url, headers });
    lines.push(JSON.stringify({ ...label, status: res.statusCode, type: res.headers['content-type'], body: res.body }));
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  console.info(`   ${lines.length} answers written to ${file}`);
};

/** A GET that must answer 200. */
export const getter = (app) => async (url, headers) => {
  const res = await app.inject({ method: 'GET', url, headers });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  return res;
};

/**
 * The measurement: `routes` (`{ name, url, headers }`; the first is the floor) warmed up (200 calls each),
 * then measured in turn `rounds` times, N calls a route; the best round per route printed with the rows
 * (`countRows(json)`) and bytes of its answer.
 */
export const measureRoutes = async ({ app, settings, title, routes, countRows }) => {
  const { n, rounds } = settings;
  const get = getter(app);
  const selected = routes.filter((r, i) => i === 0 || r.name.includes(settings.only));
  for (const r of selected) {
    const res = await get(r.url, r.headers);
    r.bytes = res.rawPayload.length;
    r.rows = countRows(res.json()) ?? '';
    for (let i = 0; i < 200; i++) await get(r.url, r.headers);
  }

  // _PROFILE: a V8 CPU profile of each route's measured requests only (not the start or the warm-up), for
  // Chrome's DevTools or a script.
  const inspector = settings.profile ? new (await import('node:inspector/promises')).Session() : null;
  if (inspector) {
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
  }

  const best = new Map();
  for (let round = 0; round < rounds; round++) {
    for (const r of selected) {
      if (inspector) await inspector.post('Profiler.start');
      const wall = performance.now();
      const cpu = process.cpuUsage();
      for (let i = 0; i < n; i++) await get(r.url, r.headers);
      const used = process.cpuUsage(cpu);
      const perPage = (used.user + used.system) / 1000 / n;
      const wallPerPage = (performance.now() - wall) / n;
      if (inspector) {
        const { profile } = await inspector.post('Profiler.stop');
        fs.writeFileSync(
          `${settings.profile.replace(/\.cpuprofile$/, '')}.${selected.indexOf(r)}.${round}.cpuprofile`,
          JSON.stringify(profile),
        );
      }
      const prev = best.get(r.name);
      if (!prev || perPage < prev.cpu) best.set(r.name, { cpu: perPage, wall: wallPerPage });
    }
  }
  console.info(
    `== ${title}, in-process (app.inject), ${n} requests a route, best of ${rounds} rounds, ${settings.url.replace(/\/\/[^@]*@/, '//')}`,
  );
  for (const r of selected) {
    const b = best.get(r.name);
    console.info(
      `   ${r.name.padEnd(24)} ${`${r.rows}`.padStart(3)} rows ${`${r.bytes}`.padStart(6)} B   cpu ${b.cpu.toFixed(3)} ms/page   wall ${b.wall.toFixed(3)} ms/page`,
    );
  }
};
