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
// (file name + route index + round). STAFF_CPU_DUMP=file: the answers written, nothing measured.
// The shared setup and measurement: bench/page-cpu.mjs.
import { benchSettings, dumpAnswers, getter, measureRoutes, prepareDatabase, startApp } from './page-cpu.mjs';

const settings = benchSettings('STAFF_CPU', 'staff_cpu');
const ORDERS = 5000;

/** ORDERS orders over 500 customers and 20 writers, in every status. */
await prepareDatabase(settings, async (setup) => {
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
});

const { app, db, bearer, close } = await startApp(settings);
const [support] = await db.query(`SELECT id FROM users WHERE email = 'cpu-support@example.com'`);
const headers = await bearer(support.id, 6);

// STAFF_CPU_DUMP=file: the raw bodies of the queue's views for support and for a writer, written and
// nothing measured (a before/after byte-for-byte comparison of the answers).
if (settings.dump) {
  const [writer] = await db.query(
    `SELECT writer_id AS id FROM orders WHERE writer_id IS NOT NULL GROUP BY writer_id ORDER BY count(*) DESC LIMIT 1`,
  );
  const writerHeaders = await bearer(writer.id, 3);
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
  const requests = [
    ['support', headers],
    ['writer', writerHeaders],
  ].flatMap(([who, h]) => queries.map((q) => ({ label: { who, q }, url: `/api/staff/orders?${q}`, headers: h })));
  await dumpAnswers(app, settings.dump, requests);
  await close();
  process.exit(0);
}

const first = await getter(app)('/api/staff/orders?limit=20', headers);
await measureRoutes({
  app,
  settings,
  title: 'staff page CPU',
  countRows: (json) => json.orders?.length,
  routes: [
    { name: 'floor: staff/me', url: '/api/staff/me' },
    { name: 'all orders, 20', url: '/api/staff/orders?limit=20' },
    { name: 'all orders, last page', url: `/api/staff/orders?limit=20&page=${Math.ceil(first.json().total / 20)}` },
    { name: 'paid, unassigned, 20', url: '/api/staff/orders?limit=20&status=2&unassigned=1' },
    { name: 'due in 24 h, 20', url: '/api/staff/orders?limit=20&dueWithin=24' },
    { name: 'search title, 20', url: '/api/staff/orders?limit=20&q=history' },
    { name: 'search email, 20', url: '/api/staff/orders?limit=20&q=olivia' },
  ].map((r) => ({ ...r, headers })),
});
await close();
