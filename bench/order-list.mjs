// ADR 0021 benchmark: the dashboard's order list for a customer with 1,000 orders among 100,000, through
// the real app (buildApp, auth, zod, service) against a bare Fastify route running the same SQL on the raw
// driver, in the same run (DESIGN "Tests": each result a ratio against a bare baseline). Goals: the app
// serves at least 0.8x the bare throughput with a p99 at most 1.25x the bare one.
// PGlite always; PostgreSQL too when BENCH_DATABASE_URL, TEST_DATABASE_URL or DATABASE_URL names a server
// (a bench_* database is created there and dropped afterwards).
// `node bench/order-list.mjs` (BENCH_DURATION_S=10, BENCH_CONNECTIONS=10 by default).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();

const root = path.resolve(import.meta.dirname, '..');
const server = (file) => import(pathToFileURL(path.join(root, 'apps/server/src', file)).href);

export const ORDER_LIST_GOALS = { throughputRatio: 0.8, p99Ratio: 1.25 };
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const TOTAL_ORDERS = 100_000;
const CUSTOMER_ORDERS = 1_000;
const OTHER_CUSTOMERS = 99;
/** Every STRIDE-th order is the bench customer's. */
const STRIDE = TOTAL_ORDERS / CUSTOMER_ORDERS;
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';

/** The requests measured: the first page as the dashboard opens, and a filtered, searched second page. */
const SCENARIOS = [
  { name: 'first page', query: 'limit=12&page=1', filter: {}, page: 1 },
  {
    name: 'status + search, page 2',
    query: 'limit=12&page=2&status=2&q=history',
    filter: { statusId: 2, search: { text: 'history', id: null } },
    page: 2,
  },
];

/** One customer with 1,000 orders and 99 others sharing the remaining 99,000, spread over two years. */
const seed = async (db) => {
  await db.query(
    `INSERT INTO users (role, email, password_hash, status_id)
     SELECT 1, 'bench-' || g || '@example.com', 'x', 1 FROM generate_series(0, ${OTHER_CUSTOMERS}) g`,
  );
  const [first] = await db.query(`SELECT id FROM users WHERE email = 'bench-0@example.com'`);
  const customerId = first.id;
  // Orders g = 1..100,000: every STRIDE-th belongs to the bench customer; the rest to the others in turn.
  await db.query(
    `INSERT INTO orders (uid, customer_id, site_category, work_type_id, level_id, title, pages, urgency_hours, status_id, hidden,
       deadline, basic_price_cents, final_price_cents, created_at, updated_at)
     SELECT md5('bench' || g), CASE WHEN g % ${STRIDE} = 0 THEN $1 ELSE $1 + 1 + (g % ${OTHER_CUSTOMERS}) END,
       (ARRAY[1, 3, 4, 5])[1 + g % 4], 1 + g % 3, 2,
       'Order ' || g || ' on ' || (ARRAY['history', 'biology', 'economics', 'nursing', 'law', 'marketing', 'physics'])[1 + (g / ${STRIDE}) % 7],
       1 + g % 20, 240, (ARRAY[1, 2, 3, 5, 7, 8, 9, 11])[1 + (g / ${STRIDE} + g) % 8], g % 37 = 0,
       ts + interval '10 days', 2400, 2400, ts, ts
     FROM (SELECT g, timestamptz '2024-01-01' + (g * interval '10 minutes') AS ts FROM generate_series(1, ${TOTAL_ORDERS}) g) s`,
    [customerId],
  );
  // A long-lived database is vacuumed (autovacuum on PostgreSQL): the visibility map lets the list's
  // count run as an index-only scan, as it would in production.
  await db.query('VACUUM ANALYZE orders');
  return customerId;
};

/** Runs autocannon in its own process (the server keeps both of this machine's cores to itself otherwise). */
const cannon = (url, headers) =>
  new Promise((resolve, reject) => {
    const args = [path.join(root, 'node_modules/autocannon/autocannon.js'), '-c', String(CONNECTIONS), '-d', String(DURATION_S / 2), '-j'];
    for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}=${v}`);
    args.push(url);
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}`));
      const r = JSON.parse(out);
      resolve({ rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx + r.errors + r.timeouts });
    });
  });

const warm = async (url, headers) => {
  for (let i = 0; i < 200; i++) {
    const res = await fetch(url, { headers });
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    await res.arrayBuffer();
  }
};

/** The app and the bare route on one database; both measured, one after the other. */
const measure = async ({ label, appDb, rawQuery }) => {
  const { buildApp } = await server('app.ts');
  const { loadConfig } = await server('config.ts');
  const { createAccessTokens } = await server('lib/jwt.ts');
  const { orderListSql } = await server('modules/orders/orders.repo.ts');
  const { systemClock } = await server('lib/clock.ts');
  const Fastify = (await import('fastify')).default;

  const started = performance.now();
  const customerId = await seed(appDb);
  console.info(`   seeded ${TOTAL_ORDERS.toLocaleString('en')} orders in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: '0',
    HOST: '127.0.0.1',
    JWT_SECRET,
    SEED_DEMO: '0',
    PUBLIC_ORIGIN: 'https://bench.example.com',
  });
  const app = await buildApp({ config, db: appDb, serveWeb: false });
  const appUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = await createAccessTokens(JWT_SECRET, systemClock).sign({ userId: customerId, role: 1 });
  const headers = { authorization: `Bearer ${token}` };

  const bare = Fastify({ logger: false });
  bare.get('/bare/:scenario', async (request) => {
    const s = SCENARIOS[Number(request.params.scenario)];
    const filter = { hidden: false, statusId: null, orderId: null, createdFrom: null, createdBefore: null, search: null, ...s.filter };
    const { sql, params } = orderListSql({ customerId, filter, limit: 12, offset: (s.page - 1) * 12 });
    const rows = await rawQuery(sql, params);
    return { orders: rows, total: rows.length > 0 ? Number(rows[0].total) : 0 };
  });
  const bareUrl = await bare.listen({ port: 0, host: '127.0.0.1' });

  const results = [];
  try {
    for (const [i, s] of SCENARIOS.entries()) {
      const appRoute = `${appUrl}/api/en/sites/categories/1/orders?${s.query}`;
      const bareRoute = `${bareUrl}/bare/${i}`;
      const [appBody, bareBody] = await Promise.all([
        fetch(appRoute, { headers }).then((r) => r.json()),
        fetch(bareRoute).then((r) => r.json()),
      ]);
      // The two routes must answer the same orders, or the ratio compares different work.
      if (appBody.total !== bareBody.total || appBody.orders.map((o) => o.id).join() !== bareBody.orders.map((o) => o.id).join()) {
        throw new Error(`${s.name}: the app and the bare route disagree`);
      }
      console.info(`   ${s.name}: ${appBody.total} matching orders of the customer`);
      await warm(bareRoute, {});
      await warm(appRoute, headers);
      // Alternating halves (bare, app, bare, app): a machine busy with something else at one moment
      // weighs on both sides alike.
      const rounds = { app: [], bare: [] };
      for (let round = 0; round < 2; round++) {
        rounds.bare.push(await cannon(bareRoute, {}));
        rounds.app.push(await cannon(appRoute, headers));
      }
      const merge = (rs) => ({
        rps: rs.reduce((sum, r) => sum + r.rps, 0) / rs.length,
        p99: rs.reduce((sum, r) => sum + r.p99, 0) / rs.length,
        non2xx: rs.reduce((sum, r) => sum + r.non2xx, 0),
      });
      results.push({ db: label, scenario: s.name, total: appBody.total, app: merge(rounds.app), bare: merge(rounds.bare) });
    }
    const first = orderListSql({
      customerId,
      filter: { hidden: false, statusId: null, orderId: null, createdFrom: null, createdBefore: null, search: null },
      limit: 12,
      offset: 0,
    });
    const plan = await rawQuery(`EXPLAIN ${first.sql}`, first.params);
    const indexes = [
      ...new Set(
        plan
          .map((r) => r['QUERY PLAN'])
          .join('\n')
          .match(/using (\w+)/gi) ?? [],
      ),
    ];
    console.info(`   plan of the first page: ${indexes.join(', ') || 'no index (!)'}`);
  } finally {
    await app.close();
    await bare.close();
  }
  return results;
};

const pgliteRun = async () => {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pgliteDb, pgliteOptions } = await server('db/client.ts');
  const { migrate } = await server('db/migrate.ts');
  const { seedDatabase } = await server('db/seed.ts');
  const { systemClock } = await server('lib/clock.ts');
  const client = new PGlite(pgliteOptions);
  await client.waitReady;
  const db = pgliteDb(client);
  await migrate(db);
  await seedDatabase(db, { demo: false, clock: systemClock });
  try {
    return await measure({
      label: 'PGlite',
      appDb: db,
      rawQuery: async (sql, params) => (params.length ? (await client.query(sql, params)).rows : (await client.exec(sql)).at(-1).rows),
    });
  } finally {
    await client.close();
  }
};

const postgresRun = async (serverUrl) => {
  const pg = (await import('pg')).default;
  const { postgresDb } = await server('db/client.ts');
  const { migrate } = await server('db/migrate.ts');
  const { seedDatabase } = await server('db/seed.ts');
  const { systemClock } = await server('lib/clock.ts');
  const name = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = postgresDb(url.toString());
  const raw = new pg.Pool({ connectionString: url.toString(), max: 10 });
  try {
    await migrate(db);
    await seedDatabase(db, { demo: false, clock: systemClock });
    return await measure({ label: 'PostgreSQL', appDb: db, rawQuery: async (sql, params) => (await raw.query(sql, params)).rows });
  } finally {
    await raw.end();
    await db.close();
    const cleanup = new pg.Client({ connectionString: serverUrl });
    await cleanup.connect();
    await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  }
};

/** Prints the figures; true when every run meets both goals. */
export const runOrderListBench = async () => {
  const results = [];
  console.info(`   ${CONNECTIONS} connections, ${DURATION_S} s per route and scenario, in two alternating halves`);
  console.info('-- PGlite');
  results.push(...(await pgliteRun()));
  const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (serverUrl) {
    console.info('-- PostgreSQL');
    results.push(...(await postgresRun(serverUrl)));
  } else {
    console.info('-- PostgreSQL skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
  }
  let within = true;
  console.info('\n   database    scenario                     app req/s  bare req/s  ratio   app p99  bare p99  ratio');
  for (const r of results) {
    const tput = r.app.rps / r.bare.rps;
    const p99 = r.app.p99 / Math.max(r.bare.p99, 1);
    const ok = tput >= ORDER_LIST_GOALS.throughputRatio && p99 <= ORDER_LIST_GOALS.p99Ratio && r.app.non2xx === 0 && r.bare.non2xx === 0;
    within &&= ok;
    console.info(
      `   ${r.db.padEnd(11)} ${r.scenario.padEnd(28)} ${r.app.rps.toFixed(0).padStart(9)} ${r.bare.rps.toFixed(0).padStart(11)} ${tput.toFixed(2).padStart(6)}x ${`${r.app.p99.toFixed(0)} ms`.padStart(9)} ${`${r.bare.p99.toFixed(0)} ms`.padStart(9)} ${p99.toFixed(2).padStart(5)}x ${ok ? 'ok' : 'OVER'}${r.app.non2xx + r.bare.non2xx ? ` (${r.app.non2xx + r.bare.non2xx} failed requests)` : ''}`,
    );
  }
  console.info(`   goals: throughput >= ${ORDER_LIST_GOALS.throughputRatio}x bare, p99 <= ${ORDER_LIST_GOALS.p99Ratio}x bare`);
  return within;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  console.info('== order list (1,000 orders of one customer among 100,000)');
  const within = await runOrderListBench();
  process.exit(within ? 0 : 1);
}
