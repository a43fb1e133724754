// ADR 0088 benchmark: the notifications' mail queue and what notifying adds to the requests that make events.
// The server runs as its own process (apps/server/src/main.ts through tsx, LOG_LEVEL=warn, mail to the
// built-in outbox, the notifications job off on its own) on a fresh bench_* database on PostgreSQL
// (BENCH_DATABASE_URL or TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
// BENCH_NOTIFY_ORDERS paid orders (default 300) per phase, each given a writer and then another by support
// (PUT /api/staff/orders/:id/writer: a notification for the customer, one for the writer; a burst of two):
//  1. the job stopped: p50/p99 of those requests, and no mail made meanwhile (sending is never on the request path);
//  2. the job running back to back (POST /api/dev/notifications/run, as if the fold window had passed, draining
//     phase 1's events) while the same requests go on: their p50/p99 again; goal: p99 added <= 5 ms;
//  3. the queue's throughput: the rest drained by the job, events and mails (into mail_outbox) a second;
//     goal >= 10 mails/s for one instance (the job's own pace is at most 100 mails a run, a run every 30 s).
// `node bench/notifications.mjs`; exits 1 when a goal is missed.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { freePort } from './start-support.mjs';

const root = path.resolve(import.meta.dirname, '..');
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ORDERS = Number(process.env.BENCH_NOTIFY_ORDERS ?? 300);
const JWT_SECRET = `bench-notify-${randomBytes(16).toString('hex')}`;
export const NOTIFY_GOALS = { addedP99Ms: 5, mailsPerSecond: 10 };
/** As if the fold window (3 min) had passed for everything made so far. */
const LATER_MS = 10 * 60_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};

const admin = async (url, sql, params = []) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
};

/** One server process (main.ts through tsx) on the bench database; the notifications job runs only when asked. */
const startServer = async (databaseUrl) => {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      DATABASE_URL: databaseUrl,
      JWT_SECRET,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      API_DOCS: '0',
      SMTP_URL: '',
      REDIS_URL: '',
      NOTIFICATIONS_JOB_INTERVAL_SECONDS: '0',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  for (let i = 0; i < 1200; i += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return { port, child, stop: () => child.kill('SIGTERM') };
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`server exited: ${err}`);
    await sleep(100);
  }
  throw new Error('server did not start');
};

export const runNotificationsBench = async () => {
  const dbName = `bench_notify_${randomBytes(4).toString('hex')}`;
  await admin(SERVER_URL, `CREATE DATABASE ${dbName}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  let server;
  try {
    server = await startServer(databaseUrl);
    const base = `http://127.0.0.1:${server.port}`;
    const { register } = await import('tsx/esm/api');
    register();
    const { createAccessTokens } = await import(pathToFileURL(path.join(root, 'apps/server/src/lib/jwt.ts')).href);
    const { NOTIFICATION_FOLD_MS, ORDER_STATUS, ROLE } = await import(pathToFileURL(path.join(root, 'packages/domain/src/index.ts')).href);
    // Customers with one paid order each (two phases' worth), two writers, one support account.
    await admin(
      databaseUrl,
      `INSERT INTO users (role, email, password_hash, status_id, first_name)
       SELECT $1::int, 'bench-n' || g || '@example.com', 'x', 1, 'Ann' FROM generate_series(1, ${2 * ORDERS}) g`,
      [ROLE.customer],
    );
    await admin(
      databaseUrl,
      `INSERT INTO users (role, email, password_hash, status_id) VALUES
         ($1, 'bench-w1@example.com', 'x', 1), ($1, 'bench-w2@example.com', 'x', 1), ($2, 'bench-s@example.com', 'x', 1)`,
      [ROLE.writer, ROLE.support],
    );
    await admin(
      databaseUrl,
      `INSERT INTO orders (uid, customer_id, site_category, work_type_id, level_id, title, pages, urgency_hours, status_id, deadline, basic_price_cents, final_price_cents)
       SELECT md5('bench-n' || u.id), u.id, 1, 1, 2, 'Bench order', 3, 240, $1, now() + interval '10 days', 2400, 2400
         FROM users u WHERE u.email LIKE 'bench-n%' ORDER BY u.id`,
      [ORDER_STATUS.paid],
    );
    const orders = (
      await admin(databaseUrl, `SELECT o.id FROM orders o JOIN users u ON u.id = o.customer_id WHERE u.email LIKE 'bench-n%' ORDER BY o.id`)
    ).map((r) => r.id);
    const staff = Object.fromEntries(
      (
        await admin(
          databaseUrl,
          `SELECT id, email FROM users WHERE email IN ('bench-w1@example.com', 'bench-w2@example.com', 'bench-s@example.com')`,
        )
      ).map((r) => [r.email, r.id]),
    );
    const support = await createAccessTokens(JWT_SECRET, { now: () => new Date() }).sign({
      userId: staff['bench-s@example.com'],
      role: ROLE.support,
    });
    const writers = [staff['bench-w1@example.com'], staff['bench-w2@example.com']];

    const assign = async (orderId, writerId) => {
      const started = performance.now();
      const res = await fetch(`${base}/api/staff/orders/${orderId}/writer`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${support}`, 'content-type': 'application/json' },
        body: JSON.stringify({ idWriter: writerId }),
      });
      const ms = performance.now() - started;
      if (res.status !== 200) throw new Error(`assign ${orderId}: ${res.status} ${await res.text()}`);
      return ms;
    };
    /** Each order its writer, then the other one: two events of one order within the fold window. */
    const requests = async (ids) => {
      const times = [];
      for (const id of ids) times.push(await assign(id, writers[0]));
      for (const id of ids) times.push(await assign(id, writers[1]));
      return times;
    };
    /** One run of the job as if at `at` (default: once every mail made so far is due). */
    const runJob = async (at = new Date(Date.now() + LATER_MS)) => {
      const res = await fetch(`${base}/api/dev/notifications/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ at: at.toISOString() }),
      });
      if (res.status !== 200) throw new Error(`job run: ${res.status} ${await res.text()}`);
      return (await res.json()).mails;
    };
    const mailCount = async () => Number((await admin(databaseUrl, 'SELECT count(*)::int AS n FROM mail_outbox'))[0].n);
    const pending = async () =>
      Number((await admin(databaseUrl, `SELECT count(*)::int AS n FROM notifications WHERE mail_state = 'pending'`))[0].n);

    // Warm up (the first requests compile routes and fill pools), then forget those events' mails.
    await requests(orders.slice(0, 5));
    while ((await runJob()) > 0);
    const phase1 = orders.slice(5, ORDERS);
    const phase2 = orders.slice(ORDERS, 2 * ORDERS - 5);

    // 1. The job stopped.
    const mailsBefore = await mailCount();
    const stopped = await requests(phase1);
    const mailedDuring = (await mailCount()) - mailsBefore;

    // 2. The job draining phase 1's mails back to back while the same requests go on: as if at the moment
    // phase 1's last burst is due and phase 2's first is not yet (they stay for 3).
    const drainAt = new Date(Date.now() + NOTIFICATION_FOLD_MS - 1);
    let draining = true;
    let drainedMails = 0;
    let runs = 0;
    const drain = (async () => {
      while (draining) {
        const n = await runJob(drainAt);
        drainedMails += n;
        runs += 1;
        if (n === 0) await sleep(50);
      }
    })();
    const running = await requests(phase2);
    draining = false;
    await drain;

    // 3. Throughput: the rest, drained by the job alone.
    const eventsLeft = await pending();
    const started = performance.now();
    let mails = 0;
    for (let n = await runJob(); n > 0; n = await runJob()) mails += n;
    const seconds = (performance.now() - started) / 1000;

    const result = {
      requests: stopped.length,
      stopped: { p50: percentile(stopped, 50), p99: percentile(stopped, 99) },
      running: { p50: percentile(running, 50), p99: percentile(running, 99) },
      mailedDuring,
      drainedMails,
      runs,
      eventsLeft,
      mails,
      seconds,
      left: await pending(),
    };
    return result;
  } finally {
    server?.stop();
    await sleep(1000);
    await admin(SERVER_URL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
};

/** Prints the figures with PASS/FAIL; true when every goal is met. */
export const printNotificationsBench = (r) => {
  const added = r.running.p99 - r.stopped.p99;
  const pass = (ok) => (ok ? 'PASS' : 'FAIL');
  const offPath = r.mailedDuring === 0;
  const addedOk = added <= NOTIFY_GOALS.addedP99Ms;
  const perSecond = r.mails / r.seconds;
  const throughputOk = perSecond >= NOTIFY_GOALS.mailsPerSecond && r.left === 0;
  console.info(
    `staff assigns (each makes 2 notifications), ${r.requests} a phase: job stopped p50 ${r.stopped.p50.toFixed(1)} ms p99 ${r.stopped.p99.toFixed(1)} ms; ` +
      `job running (${r.runs} runs, ${r.drainedMails} mails meanwhile) p50 ${r.running.p50.toFixed(1)} ms p99 ${r.running.p99.toFixed(1)} ms`,
  );
  console.info(`${pass(offPath)} no mail made on the request path (${r.mailedDuring} mails while only requests ran)`);
  console.info(`${pass(addedOk)} p99 added by the running job: ${added.toFixed(1)} ms (goal <= ${NOTIFY_GOALS.addedP99Ms} ms)`);
  console.info(
    `${pass(throughputOk)} mail queue: ${r.eventsLeft} events -> ${r.mails} mails in ${r.seconds.toFixed(2)} s: ` +
      `${(r.eventsLeft / r.seconds).toFixed(1)} events/s, ${perSecond.toFixed(1)} mails/s (goal >= ${NOTIFY_GOALS.mailsPerSecond}); ${r.left} left pending`,
  );
  return offPath && addedOk && throughputOk;
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const within = printNotificationsBench(await runNotificationsBench());
  console.info(within ? 'notifications: within its goals' : 'notifications: a goal was missed');
  process.exit(within ? 0 : 1);
}
