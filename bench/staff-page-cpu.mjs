// Issue 23 / ADR 0081 addendum: the server's own CPU per staff queue page, measured in-process (no socket,
// no load generator): the app built as bench/scale-lists.mjs builds it (PostgreSQL, production config,
// LOG_LEVEL warn, the JWT guard with its liveness check, zod, the services), a few thousand orders, support
// signed in; after a warm-up each route is called through `app.inject` N times, one at a time, and the
// process CPU (`process.cpuUsage()`, user + system) per request is printed, with `/api/staff/me` (the same
// guard, one primary-key query, a small answer) as the floor a guarded route costs.
//
// `nice -n -15 node bench/staff-page-cpu.mjs` on STAFF_CPU_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/staff_cpu; a database of its own, created and filled when missing,
// STAFF_CPU_RESEED=1 fills it again). STAFF_CPU_N requests a route (default 1000), STAFF_CPU_ROUNDS (3):
// the routes are measured in turn that many times and the best round is printed (a shared machine's noise
// only ever adds). STAFF_CPU_ONLY: only the routes whose name contains it. STAFF_CPU_PROFILE=/tmp/staff.cpuprofile: a V8 CPU profile of each measured route
// (file name + route index + round).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';

register();

const root = path.resolve(import.meta.dirname, '..');
const server = (file) => import(pathToFileURL(path.join(root, 'apps/server/src', file)).href);
const pg = (await import('pg')).default;

const URL_ = process.env.STAFF_CPU_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/staff_cpu';
const N = Number(process.env.STAFF_CPU_N ?? 1000);
const ROUNDS = Number(process.env.STAFF_CPU_ROUNDS ?? 3);
const ORDERS = 5000;
/** STAFF_CPU_ONLY: only the routes whose name contains it (the floor is always measured). */
const ONLY = process.env.STAFF_CPU_ONLY ?? '';
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';

const ROUTES = [
  { name: 'floor: staff/me', url: '/api/staff/me' },
  { name: 'all orders, 20', url: '/api/staff/orders?limit=20' },
  { name: 'all orders, last page', url: null },
  { name: 'paid, unassigned, 20', url: '/api/staff/orders?limit=20&status=2&unassigned=1' },
  { name: 'due in 24 h, 20', url: '/api/staff/orders?limit=20&dueWithin=24' },
  { name: 'search title, 20', url: '/api/staff/orders?limit=20&q=history' },
  { name: 'search email, 20', url: '/api/staff/orders?limit=20&q=olivia' },
].filter((r, i) => i === 0 || r.name.includes(ONLY));

/** A database of its own with ORDERS orders over 500 customers and 20 writers, in every status. */
const prepare = async () => {
  const { postgresDb } = await server('db/client.ts');
  const { migrate } = await server('db/migrate.ts');
  const { seedDatabase } = await server('db/seed.ts');
  const { systemClock } = await server('lib/clock.ts');
  const name = new URL(URL_).pathname.slice(1);
  if (!/^\w+$/.test(name) || name === 'test') throw new Error(`STAFF_CPU_DATABASE_URL must name a database of its own`);
  const adminUrl = new URL(URL_);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount > 0;
  if (exists && process.env.STAFF_CPU_RESEED === '1') await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
  const fill = !exists || process.env.STAFF_CPU_RESEED === '1';
  if (fill) await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const setup = postgresDb(URL_, { prepared: false, queryTimeoutMs: 0 });
  try {
    await migrate(setup);
    if (fill) {
      await seedDatabase(setup, { demo: false, clock: systemClock });
      await setup.query(`SELECT setseed(0.5)`);
      await setup.query(
        `INSERT INTO users (role, email, password_hash, first_name, last_name, status_id)
         SELECT 1, (ARRAY['anna', 'ben', 'olivia', 'paul'])[1 + g % 4] || '.baker' || g || '@example.com', 'x', 'Customer', 'No ' || g, 1
           FROM generate_series(1, 500) g
         UNION ALL SELECT 3, 'cpu-writer-' || g || '@example.com', 'x', 'Writer', 'No ' || g, 1 FROM generate_series(1, 20) g
         UNION ALL SELECT 6, 'cpu-support@example.com', 'x', 'Cpu', 'Support', 1`,
      );
      await setup.query(
        `INSERT INTO orders (uid, customer_id, site_category, work_type_id, level_id, subject_id, paper_format_id, title, pages,
           urgency_hours, writer_id, status_id, hidden, deadline, basic_price_cents, final_price_cents, amount_due_cents, created_at, updated_at)
         SELECT md5('cpu' || g), (SELECT min(id) FROM users WHERE role = 1 AND email LIKE '%.baker%') + g % 500, 1, 1 + g % 3, 2, 1 + g % 40,
           1 + g % 4, (ARRAY['The impact of', 'An analysis of', 'Essay on'])[1 + g % 3] || ' ' || (ARRAY['history', 'biology', 'law', 'art'])[1 + g % 4] || ' ' || g,
           1 + g % 30, 24, CASE WHEN s IN (3, 5, 7, 9) THEN (SELECT min(id) FROM users WHERE role = 3) + g % 20 END, s, false,
           now() - interval '30 days' + g * interval '10 minutes', g % 30 * 1800 + 1800, g % 30 * 1800 + 1700, 0,
           now() - interval '40 days' + g * interval '10 minutes', now()
         FROM (SELECT g, (ARRAY[1, 2, 2, 3, 3, 5, 8, 9])[1 + g % 8] AS s FROM generate_series(1, ${ORDERS}) g) x`,
      );
      await setup.query('ANALYZE');
    }
  } finally {
    await setup.close();
  }
};

await prepare();
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
  DATABASE_URL: URL_,
});
const db = postgresDb(URL_, { prepared: config.preparedStatements });
const app = await buildApp({ config, db, serveWeb: false });
await app.ready();
const [support] = await db.query(`SELECT id FROM users WHERE email = 'cpu-support@example.com'`);
const headers = { authorization: `Bearer ${await createAccessTokens(JWT_SECRET, systemClock).sign({ userId: support.id, role: 6 })}` };

// STAFF_CPU_DUMP=file: the raw bodies of the queue's views for support and for a writer, written and
// nothing measured (a before/after byte-for-byte comparison of the answers).
if (process.env.STAFF_CPU_DUMP) {
  const [writer] = await db.query(
    `SELECT writer_id AS id FROM orders WHERE writer_id IS NOT NULL GROUP BY writer_id ORDER BY count(*) DESC LIMIT 1`,
  );
  const writerHeaders = {
    authorization: `Bearer ${await createAccessTokens(JWT_SECRET, systemClock).sign({ userId: writer.id, role: 3 })}`,
  };
  const queries = [
    'limit=20',
    'limit=100&page=3',
    'limit=20&page=250',
    'limit=7&page=400',
    'limit=20&status=3',
    'limit=20&status=2&unassigned=1',
    'limit=20&dueWithin=720',
    'limit=20&q=history',
    'limit=20&q=olivia',
    'limit=20&q=%23120',
    'limit=20&sort=deadline',
    'limit=20&view=overdue',
    'limit=20&view=paidUnassigned',
    'limit=20&page=9999',
    'limit=20&q=ab',
    'limit=20&status=99',
  ];
  const lines = [];
  for (const [who, h] of [
    ['support', headers],
    ['writer', writerHeaders],
  ]) {
    for (const q of queries) {
      const res = await app.inject({ method: 'GET', url: `/api/staff/orders?${q}`, headers: h });
      lines.push(JSON.stringify({ who, q, status: res.statusCode, type: res.headers['content-type'], body: res.body }));
    }
  }
  (await import('node:fs')).writeFileSync(process.env.STAFF_CPU_DUMP, `${lines.join('\n')}\n`);
  console.info(`   ${lines.length} answers written to ${process.env.STAFF_CPU_DUMP}`);
  await app.close();
  await db.close();
  process.exit(0);
}

const first = await app.inject({ method: 'GET', url: '/api/staff/orders?limit=20', headers });
if (first.statusCode !== 200) throw new Error(`the queue answered ${first.statusCode}: ${first.body.slice(0, 200)}`);
const last = ROUTES.find((r) => r.url === null);
if (last) last.url = `/api/staff/orders?limit=20&page=${Math.ceil(first.json().total / 20)}`;

const call = async (url) => {
  const res = await app.inject({ method: 'GET', url, headers });
  if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  return res;
};
for (const r of ROUTES) {
  const res = await call(r.url);
  r.bytes = res.rawPayload.length;
  r.rows = res.json().orders?.length ?? '';
  for (let i = 0; i < 200; i++) await call(r.url);
}

// STAFF_CPU_PROFILE=file.cpuprofile: a V8 CPU profile of each route's measured requests only (not the start or
// the warm-up), for Chrome's DevTools or a script.
const profilePath = process.env.STAFF_CPU_PROFILE;
const inspector = profilePath ? new (await import('node:inspector/promises')).Session() : null;
if (inspector) {
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 100 });
}

const best = new Map();
for (let round = 0; round < ROUNDS; round++) {
  for (const r of ROUTES) {
    const profiled = inspector !== null;
    if (profiled) await inspector.post('Profiler.start');
    const wall = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < N; i++) await call(r.url);
    const used = process.cpuUsage(cpu);
    const perPage = (used.user + used.system) / 1000 / N;
    const wallPerPage = (performance.now() - wall) / N;
    if (profiled) {
      const { profile } = await inspector.post('Profiler.stop');
      (await import('node:fs')).writeFileSync(
        `${profilePath.replace(/\.cpuprofile$/, '')}.${ROUTES.indexOf(r)}.${round}.cpuprofile`,
        JSON.stringify(profile),
      );
    }
    const prev = best.get(r.name);
    if (!prev || perPage < prev.cpu) best.set(r.name, { cpu: perPage, wall: wallPerPage });
  }
}
console.info(
  `== staff page CPU, in-process (app.inject), ${N} requests a route, best of ${ROUNDS} rounds, ${URL_.replace(/\/\/[^@]*@/, '//')}`,
);
for (const r of ROUTES) {
  const b = best.get(r.name);
  console.info(
    `   ${r.name.padEnd(24)} ${`${r.rows}`.padStart(3)} rows ${`${r.bytes}`.padStart(6)} B   cpu ${b.cpu.toFixed(3)} ms/page   wall ${b.wall.toFixed(3)} ms/page`,
  );
}
await app.close();
await db.close();
