// ADR 0048 benchmark: chat delivery. 2,000 sockets (two tabs per order) in 1,000 orders, support posting
// messages; measured from the POST to each frame 1 on the sockets of the order:
//  1. latency at a steady rate (BENCH_CHAT_RATE messages a second for BENCH_DURATION_S): p50 and p99, goal p99 <= 50 ms;
//  2. throughput, closed loop: messages fully delivered a second with 16, 64 and 128 posts in flight
//     (BENCH_CHAT_INFLIGHT, comma-separated), each target's best level counting (ADR 0066: a server's throughput is
//     what it sustains once enough is in flight, not what 16 posts in flight allow at its latency), against a bare
//     `ws` + node:http server doing the same fan-out (no database, no auth) in the same run; goal >= 0.7x;
//  3. with --redis (or BENCH_CHAT_REDIS=1): the same across two instances with Redis (sockets on one, posts to the other);
//  4. memory per idle socket: the server's RSS before and after 2,000 idle sockets; goal <= 16 KB.
// The server runs as its own process (apps/server/src/main.ts through tsx, LOG_LEVEL=warn) on a fresh bench_*
// database on PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/postgres).
// Support is 2,000 accounts taking turns, each within the chat's send limits (10 per 10 s, 30 a minute).
// `node bench/chat-delivery.mjs [--redis] [--no-memory]`; BENCH_CPU_PROF=<dir> writes the server's CPU profile there.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { WebSocket, WebSocketServer } from 'ws';
import { freePort } from './start-support.mjs';

const root = path.resolve(import.meta.dirname, '..');
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ORDERS = Number(process.env.BENCH_CHAT_ORDERS ?? 1000);
const TABS = 2;
const SUPPORTS = Number(process.env.BENCH_CHAT_SUPPORTS ?? 8000);
const RATE = Number(process.env.BENCH_CHAT_RATE ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const INFLIGHT_LEVELS = (process.env.BENCH_CHAT_INFLIGHT ?? '16,64,128').split(',').map(Number);
const JWT_SECRET = `bench-chat-${randomBytes(16).toString('hex')}`;
export const CHAT_GOALS = { p99Ms: 50, throughputRatio: 0.7, idleSocketBytes: 16 * 1024 };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (values, p) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
// CPU time in milliseconds (USER_HZ is 100 on Linux): the whole machine's busy time, and per process.
const TICK_MS = 10;
const machineBusyMs = () => {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
  // user nice system idle iowait irq softirq steal: everything but idle and iowait
  return (fields[0] + fields[1] + fields[2] + fields[5] + fields[6] + fields[7]) * TICK_MS;
};
const processMs = (pid) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0; // the process ended
  }
};
const postgresPids = () =>
  readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
    } catch {
      return false;
    }
  });
/** CPU spent while `run` runs: the machine, this bench process, the given server processes, and PostgreSQL's backends. */
const cpuDuring = async (serverPids, run) => {
  const pgBefore = new Map(postgresPids().map((pid) => [pid, processMs(pid)]));
  const before = { machine: machineBusyMs(), bench: process.cpuUsage(), servers: serverPids.map(processMs) };
  const result = await run();
  let database = 0;
  for (const pid of postgresPids()) database += processMs(pid) - (pgBefore.get(pid) ?? 0);
  const bench = process.cpuUsage(before.bench);
  return {
    result,
    cpu: {
      machine: machineBusyMs() - before.machine,
      bench: (bench.user + bench.system) / 1000,
      server: serverPids.reduce((sum, pid, i) => sum + processMs(pid) - before.servers[i], 0),
      database,
    },
  };
};
const rssOf = (pid) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

const admin = async (url, sql, params = []) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
};

/** One server process (main.ts through tsx) on the bench database. */
const startServer = async (databaseUrl, env = {}) => {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []),
      '--import',
      'tsx',
      path.join(root, 'apps/server/src/main.ts'),
    ],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: databaseUrl,
        JWT_SECRET,
        SEED_DEMO: '0',
        LOG_LEVEL: 'warn',
        API_DOCS: '0',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  child.stderr.on('data', (c) => (err += c));
  for (let i = 0; i < 600; i += 1) {
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

/** The bare baseline: node:http takes `POST /send {orderId, clientId}`, `ws` fans the frame out to the order's sockets. */
const startBare = async () => {
  const byOrder = new Map();
  let id = 0;
  const http = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { orderId, clientId, text } = JSON.parse(body);
      id += 1;
      const message = {
        id,
        orderId,
        sequence: id,
        direction: { id: 6 },
        state: { id: 1 },
        body: text,
        sticker: null,
        emoji: null,
        files: [],
        dateCreated: new Date().toISOString(),
        clientId,
      };
      const frame = JSON.stringify({ event: 1, data: { message } });
      for (const ws of byOrder.get(orderId) ?? []) ws.send(frame);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(message));
    });
  });
  const wss = new WebSocketServer({ server: http, maxPayload: 4096, perMessageDeflate: false });
  wss.on('connection', (ws, req) => {
    const orderId = Number(new URL(req.url, 'http://x').searchParams.get('orderId'));
    const set = byOrder.get(orderId) ?? new Set();
    set.add(ws);
    byOrder.set(orderId, set);
    ws.on('close', () => set.delete(ws));
  });
  const port = await freePort();
  await new Promise((resolve) => http.listen(port, '127.0.0.1', resolve));
  return {
    port,
    stop: () =>
      new Promise((resolve) => {
        wss.close();
        http.close(resolve);
        http.closeAllConnections();
      }),
  };
};

/** Opens the sockets in batches; every frame 1 is timed against the POST of its clientId. */
const openSockets = async (urls, onFrame) => {
  const sockets = [];
  for (let i = 0; i < urls.length; i += 100) {
    sockets.push(
      ...(await Promise.all(
        urls.slice(i, i + 100).map(
          (url) =>
            new Promise((resolve, reject) => {
              const ws = new WebSocket(url, { perMessageDeflate: false });
              ws.on('message', (raw) => onFrame(raw));
              ws.once('open', () => resolve(ws));
              ws.once('error', reject);
              ws.once('close', (code) => code !== 1000 && code !== 1005 && reject(new Error(`socket closed ${code}`)));
            }),
        ),
      )),
    );
  }
  return sockets;
};

/** Runs the latency phase then the throughput phase against one target. */
const measure = async ({ name, socketUrls, post, serverPids = [] }) => {
  const sentAt = new Map();
  const pending = new Map();
  const latencies = [];
  let delivered = 0;
  const onFrame = (raw) => {
    const at = performance.now();
    const text = raw.toString();
    if (!text.startsWith('{"event":1,')) return;
    const clientId = /"clientId":"([^"]+)"/.exec(text)?.[1];
    const t0 = sentAt.get(clientId);
    if (t0 === undefined) return;
    latencies.push(at - t0);
    const left = (pending.get(clientId) ?? TABS) - 1;
    if (left <= 0) {
      pending.delete(clientId);
      sentAt.delete(clientId);
      delivered += 1;
    } else pending.set(clientId, left);
  };
  const sockets = await openSockets(socketUrls, onFrame);
  let turn = 0;
  const send = async () => {
    turn += 1;
    const orderIndex = turn % ORDERS;
    const clientId = randomUUID();
    sentAt.set(clientId, performance.now());
    pending.set(clientId, TABS);
    const res = await post({ orderIndex, clientId, turn, text: `message ${turn}` });
    if (!res.ok) throw new Error(`${name}: POST answered ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
  };

  // Warm-up (JIT, pools, caches): 2 s at the steady rate, not counted.
  const interval = 1000 / RATE;
  for (let i = 0; i < RATE * 2; i += 1) {
    await Promise.all([send(), sleep(interval)]);
  }
  await sleep(500);
  latencies.length = 0;

  // 1. steady rate
  const started = performance.now();
  const inflight = [];
  for (let i = 0; i < RATE * DURATION_S; i += 1) {
    const due = started + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inflight.push(send());
  }
  await Promise.all(inflight);
  await sleep(1000);
  const steady = {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    frames: latencies.length,
    expected: RATE * DURATION_S * TABS,
  };

  // 2. closed loop, at each level of posts in flight
  const loops = [];
  for (const inflight of INFLIGHT_LEVELS) {
    latencies.length = 0;
    delivered = 0;
    const until = performance.now() + DURATION_S * 1000;
    // The CPU count includes the second after the loop, in which the last frames arrive.
    const { result: ended, cpu } = await cpuDuring(serverPids, async () => {
      await Promise.all(
        Array.from({ length: inflight }, async () => {
          while (performance.now() < until) await send();
        }),
      );
      const at = performance.now();
      await sleep(1000);
      return at;
    });
    const tookS = (ended - (until - DURATION_S * 1000)) / 1000;
    // CPU milliseconds per fully delivered message: what bounds it on a 2-core machine.
    const perMessage = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, v / Math.max(1, delivered)]));
    loops.push({ inflight, throughput: delivered / tookS, p99: percentile(latencies, 99), perMessage });
  }
  for (const ws of sockets) ws.terminate();
  const best = loops.reduce((a, b) => (b.throughput > a.throughput ? b : a));
  return { name, steady, loops, throughput: best.throughput, perMessage: best.perMessage };
};

/** The chat's throughput over the bare server's at each level of posts in flight. */
const levelRatios = (chat, bare) =>
  chat.loops.map((l, i) => `${l.inflight} in flight ${(l.throughput / (bare.loops[i]?.throughput ?? NaN)).toFixed(2)}`).join(', ');
const cpuText = ({ machine, bench, server, database }) =>
  `CPU per message: machine ${machine.toFixed(2)} ms (bench process ${bench.toFixed(2)}, server ${server.toFixed(2)}, PostgreSQL ${database.toFixed(2)})`;
const fmt = (r) =>
  [
    `${r.name}: steady ${RATE}/s: p50 ${r.steady.p50.toFixed(1)} ms, p99 ${r.steady.p99.toFixed(1)} ms (${r.steady.frames}/${r.steady.expected} frames)`,
    ...r.loops.map(
      (l) =>
        `  closed loop, ${l.inflight} in flight: ${l.throughput.toFixed(0)} messages/s fully delivered (p99 ${l.p99.toFixed(1)} ms); ${cpuText(l.perMessage)}`,
    ),
    `  throughput (best level): ${r.throughput.toFixed(0)} messages/s`,
  ].join('\n');

export const runChatDeliveryBench = async ({ redis = false, memory = true } = {}) => {
  const dbName = `bench_chat_${randomBytes(4).toString('hex')}`;
  await admin(SERVER_URL, `CREATE DATABASE ${dbName}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${dbName}`;
  const databaseUrl = url.toString();
  const stops = [];
  const results = {};
  try {
    const a = await startServer(databaseUrl);
    stops.push(a.stop);
    // 1,000 customers with one order each, 2,000 support accounts.
    await admin(
      databaseUrl,
      `INSERT INTO users (role, email, password_hash, status_id) SELECT 1, 'bench-c' || g || '@example.com', 'x', 1 FROM generate_series(1, ${ORDERS}) g`,
    );
    await admin(
      databaseUrl,
      `INSERT INTO users (role, email, password_hash, status_id) SELECT 6, 'bench-s' || g || '@example.com', 'x', 1 FROM generate_series(1, ${SUPPORTS}) g`,
    );
    await admin(
      databaseUrl,
      `INSERT INTO orders (uid, customer_id, site_category, work_type_id, level_id, title, pages, urgency_hours, status_id, deadline, basic_price_cents, final_price_cents)
       SELECT md5('bench' || u.id), u.id, 1, 1, 2, 'Bench order', 3, 240, 3, now() + interval '10 days', 2400, 2400 FROM users u WHERE u.email LIKE 'bench-c%' ORDER BY u.id`,
    );
    const orders = await admin(
      databaseUrl,
      `SELECT o.id, o.customer_id FROM orders o JOIN users u ON u.id = o.customer_id WHERE u.email LIKE 'bench-c%' ORDER BY o.id`,
    );
    const supports = await admin(databaseUrl, `SELECT id FROM users WHERE email LIKE 'bench-s%' ORDER BY id`);
    const { register } = await import('tsx/esm/api');
    register();
    const { createAccessTokens } = await import(pathToFileURL(path.join(root, 'apps/server/src/lib/jwt.ts')).href);
    const tokens = createAccessTokens(JWT_SECRET, { now: () => new Date() });
    const customerTokens = await Promise.all(orders.map((o) => tokens.sign({ userId: o.customer_id, role: 1 })));
    const supportTokens = await Promise.all(supports.map((s) => tokens.sign({ userId: s.id, role: 6 })));
    const boundary = '----bench';
    const form = (text) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="message"\r\n\r\n${JSON.stringify({ body: text })}\r\n--${boundary}--\r\n`;
    const appPost =
      (port) =>
      ({ orderIndex, clientId, turn, text }) =>
        fetch(`http://127.0.0.1:${port}/chat/api/staff/orders/${orders[orderIndex].id}/messages`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${supportTokens[turn % SUPPORTS]}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'idempotency-key': clientId,
          },
          body: form(text),
        });
    const urlsFor = (port) =>
      orders.flatMap((o, i) =>
        Array.from({ length: TABS }, () => `ws://127.0.0.1:${port}/chat/customers/orders/messages?accessToken=${customerTokens[i]}`),
      );

    if (memory) {
      const before = rssOf(a.child.pid);
      const idle = await openSockets(urlsFor(a.port), () => undefined);
      await sleep(3000);
      const after = rssOf(a.child.pid);
      results.memory = { before, after, perSocket: (after - before) / idle.length, sockets: idle.length };
      console.info(
        `idle sockets: server RSS ${(before / 1048576).toFixed(1)} MB -> ${(after / 1048576).toFixed(1)} MB over ${idle.length} sockets: ${(results.memory.perSocket / 1024).toFixed(1)} KB per socket (goal <= 16 KB)`,
      );
      for (const ws of idle) ws.terminate();
      await sleep(1000);
    }

    const bare = await startBare();
    stops.push(bare.stop);
    results.bare = await measure({
      name: 'bare ws',
      socketUrls: orders.flatMap((o) => Array.from({ length: TABS }, () => `ws://127.0.0.1:${bare.port}/?orderId=${o.id}`)),
      post: ({ orderIndex, clientId, text }) =>
        fetch(`http://127.0.0.1:${bare.port}/send`, {
          method: 'POST',
          body: JSON.stringify({ orderId: orders[orderIndex].id, clientId, text }),
        }),
    });
    console.info(fmt(results.bare));
    results.app = await measure({
      name: 'chat (one instance)',
      socketUrls: urlsFor(a.port),
      post: appPost(a.port),
      serverPids: [a.child.pid],
    });
    console.info(fmt(results.app));
    console.info(
      `throughput ratio ${(results.app.throughput / results.bare.throughput).toFixed(2)}, best level against best level (goal >= ${CHAT_GOALS.throughputRatio}); p99 ${results.app.steady.p99.toFixed(1)} ms (goal <= ${CHAT_GOALS.p99Ms})`,
    );
    console.info(`  at the same level: ${levelRatios(results.app, results.bare)}`);
    // The chat's ceiling when the bench, the server and PostgreSQL share these cores: cores / CPU per message.
    const chatCpu = results.app.perMessage.bench + results.app.perMessage.server + results.app.perMessage.database;
    const ceiling = (availableParallelism() * 1000) / chatCpu;
    console.info(
      `CPU per chat message (bench + server + PostgreSQL): ${chatCpu.toFixed(2)} ms: on these ${availableParallelism()} cores at most ${ceiling.toFixed(0)} messages/s, ${(ceiling / results.bare.throughput).toFixed(2)} of the bare server's measured rate`,
    );

    if (redis) {
      a.stop();
      await sleep(1000);
      const prefix = `bench-chat:${randomBytes(4).toString('hex')}:`;
      const r1 = await startServer(databaseUrl, { REDIS_URL, CHAT_REDIS_PREFIX: prefix });
      const r2 = await startServer(databaseUrl, { REDIS_URL, CHAT_REDIS_PREFIX: prefix });
      stops.push(r1.stop, r2.stop);
      results.redis = await measure({
        name: 'chat (two instances, Redis; sockets on B, posts to A)',
        socketUrls: urlsFor(r2.port),
        post: appPost(r1.port),
        serverPids: [r1.child.pid, r2.child.pid],
      });
      console.info(fmt(results.redis));
      console.info(`throughput ratio ${(results.redis.throughput / results.bare.throughput).toFixed(2)} of the bare server`);
      console.info(`  at the same level: ${levelRatios(results.redis, results.bare)}`);
    }
    return results;
  } finally {
    for (const stop of stops) await stop();
    await sleep(1000);
    await admin(SERVER_URL, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  }
};

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const results = await runChatDeliveryBench({
    redis: process.argv.includes('--redis') || process.env.BENCH_CHAT_REDIS === '1',
    memory: !process.argv.includes('--no-memory'),
  });
  const within =
    results.app.steady.p99 <= CHAT_GOALS.p99Ms &&
    results.app.throughput / results.bare.throughput >= CHAT_GOALS.throughputRatio &&
    (!results.memory || results.memory.perSocket <= CHAT_GOALS.idleSocketBytes);
  console.info(within ? 'chat delivery: within its budgets' : 'chat delivery: a budget was exceeded');
  process.exit(within ? 0 : 1);
}
