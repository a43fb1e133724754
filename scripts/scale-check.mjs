// docs/operations.md "Running at scale", run as a test (`npm run scale-check`; CI runs it after `npm test`):
// a production start of two instances at the same moment on one empty PostgreSQL database, one Redis
// and one shared secret, behind scripts/round-robin-lb.mjs. Checks that both come up (migrations and
// seed applied once, no error logged), that requests alternate between them and a session made on one
// works on the other, that rate limits count across both (Redis) and ignore a spoofed X-Forwarded-For,
// the production defaults (HSTS, no-store, no docs, no outbox), and that both shut down with exit 0.
//
// Needs PostgreSQL (SCALE_PG_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
// and Redis (SCALE_REDIS_URL, default redis://127.0.0.1:6379). Ports: SCALE_LB_PORT (4002) and
// SCALE_PORTS (4012,4013). Builds the web app once when apps/web/dist is missing.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startLoadBalancer } from './round-robin-lb.mjs';

const root = path.resolve(import.meta.dirname, '..');
const pgUrl = process.env.SCALE_PG_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.SCALE_REDIS_URL || 'redis://127.0.0.1:6379';
const lbPort = Number(process.env.SCALE_LB_PORT || 4002);
const ports = (process.env.SCALE_PORTS || '4012,4013').split(',').map(Number);
const started = Date.now();
const log = (line) => console.info(`[scale-check ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}`);

const failures = [];
const check = (ok, what, detail = '') => {
  if (ok) log(`ok   ${what}`);
  else {
    failures.push(what);
    log(`FAIL ${what}${detail ? `: ${detail}` : ''}`);
  }
};

/** One HTTP request (optionally from a given local address); resolves { status, headers, body }. */
const request = (port, method, url, { body, headers = {}, localAddress } = {}) =>
  new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: url,
        localAddress,
        agent: false,
        headers: { ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });

const adminQuery = async (url, sql, params) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
};

// 1. An empty database, a shared files folder, the web app built once.
const dbName = `scale_${randomBytes(5).toString('hex')}`;
await adminQuery(pgUrl, `CREATE DATABASE ${dbName}`);
const dbUrl = new URL(pgUrl);
dbUrl.pathname = `/${dbName}`;
const work = mkdtempSync(path.join(os.tmpdir(), 'scale-check-'));
if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) {
  log('building the web app once');
  const build = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '-w', '@app/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) throw new Error('web build failed');
}

// 2. The load balancer, then two production instances started at the same moment.
const lb = await startLoadBalancer({ port: lbPort, upstreams: ports.map((p) => `127.0.0.1:${p}`) });
const origin = `http://127.0.0.1:${lb.port}`;
const sharedEnv = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? os.tmpdir(),
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  DATABASE_URL: dbUrl.toString(),
  REDIS_URL: redisUrl,
  JWT_SECRET: randomBytes(48).toString('base64url'),
  PUBLIC_ORIGIN: origin,
  TRUST_PROXY: '1',
  FILES_DIR: path.join(work, 'files'),
  SKIP_WEB_BUILD: '1',
  LOG_LEVEL: 'info',
  SHUTDOWN_TIMEOUT_MS: '5000',
};
const instances = ports.map((port, i) => {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...sharedEnv, PORT: String(port), DATA_DIR: path.join(work, `data-${i}`) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const instance = { port, child, output: '', exit: undefined };
  child.stdout.on('data', (chunk) => (instance.output += chunk));
  child.stderr.on('data', (chunk) => (instance.output += chunk));
  instance.exited = new Promise((resolve) => child.on('exit', (code) => resolve((instance.exit = code))));
  return instance;
});
log(`started instances on ${ports.join(' and ')} behind ${origin} (database ${dbName})`);

const cleanup = async () => {
  for (const instance of instances) if (instance.exit === undefined) instance.child.kill('SIGKILL');
  await lb.close();
  await adminQuery(pgUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
};

try {
  // 3. Both come up.
  const deadline = Date.now() + 180_000;
  const healthy = new Set();
  while (healthy.size < instances.length && Date.now() < deadline && instances.every((x) => x.exit === undefined)) {
    for (const instance of instances) {
      if (healthy.has(instance.port)) continue;
      const res = await request(instance.port, 'GET', '/healthz').catch(() => undefined);
      if (res?.status === 200) healthy.add(instance.port);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  check(
    healthy.size === instances.length,
    'both instances answer /healthz',
    instances.map((x) => `:${x.port} exit=${x.exit}\n${x.output}`).join('\n'),
  );
  if (healthy.size < instances.length) throw new Error('instances did not start');

  // 4. Migrations and seed applied once, nothing logged at error or fatal.
  const files = readdirSync(path.join(root, 'apps/server/src/db/migrations'))
    .filter((f) => f.endsWith('.sql'))
    .sort();
  const applied = (await adminQuery(dbUrl.toString(), 'SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name);
  check(JSON.stringify(applied) === JSON.stringify(files), 'every migration applied exactly once', `${applied.join(',')}`);
  const [settings] = await adminQuery(dbUrl.toString(), 'SELECT count(*)::int AS n FROM site_settings');
  check(settings.n === 1, 'the base data seeded once', `site_settings rows: ${settings.n}`);
  const [users] = await adminQuery(dbUrl.toString(), 'SELECT count(*)::int AS n FROM users');
  check(users.n === 0, 'no demo accounts in production', `users: ${users.n}`);
  const errorLines = (instance) =>
    instance.output.split('\n').filter((line) => /"level":(50|60)/.test(line) || /^(Error|TypeError|Invalid configuration)/.test(line));
  for (const instance of instances)
    check(errorLines(instance).length === 0, `instance :${instance.port} logged no error while starting`, errorLines(instance).join('\n'));

  // 5. Through the load balancer: answers alternate, a session made on one instance works on the other.
  const email = `scale-${Date.now().toString(36)}${randomInt(1e6)}@example.com`;
  const signUp = await request(lb.port, 'POST', '/api/en/auth/jwt/sign_up', {
    body: {
      phone: '1555123456',
      email,
      password: 'scale-pass-1',
      firstName: 'Ada',
      lastName: 'Lovelace',
      isEnabledNightCall: false,
      ref_id: null,
      hashDevice: 'scale',
    },
  });
  check(signUp.status === 200, 'a customer signs up through the load balancer', `${signUp.status} ${signUp.body}`);
  const { accessToken, refreshToken } = JSON.parse(signUp.body);
  check(signUp.headers['cache-control'] === 'no-store', 'the sign-up answer (tokens) is no-store', String(signUp.headers['cache-control']));
  check(signUp.headers['strict-transport-security']?.startsWith('max-age=') === true, 'production answers carry HSTS');
  const served = [];
  for (let i = 0; i < 4; i++) {
    const me = await request(lb.port, 'GET', '/api/en/customers/customer', { headers: { authorization: `Bearer ${accessToken}` } });
    served.push(me.headers['x-upstream']);
    check(
      me.status === 200 && JSON.parse(me.body).email === email,
      `profile #${i + 1} answered by ${me.headers['x-upstream']}`,
      `${me.status} ${me.body}`,
    );
  }
  check(
    new Set(served).size === instances.length && served.every((u, i) => i === 0 || u !== served[i - 1]),
    'requests alternate between the instances',
    served.join(' '),
  );
  // The load balancer alternates, so each call below lands on the other instance than the one before.
  const refresh = (token) => request(lb.port, 'PUT', '/api/en/auth/jwt/refresh', { headers: { authorization: `Bearer ${token}` } });
  const refreshed = await refresh(refreshToken);
  const child = refreshed.status === 200 ? JSON.parse(refreshed.body).refreshToken : '';
  // ADR 0061: a rotation whose answer was lost, asked again on the other instance, gets the same child
  // (the rotation key is shared); once the child is used, the old token is spent everywhere.
  const replayed = await refresh(refreshToken);
  check(
    refreshed.status === 200 && replayed.status === 200 && JSON.parse(replayed.body).refreshToken === child,
    'a refresh asked again on the other instance gets the same rotation',
    `${refreshed.status}/${replayed.status}`,
  );
  const used = await refresh(child);
  const reused = await refresh(refreshToken);
  check(
    used.status === 200 && reused.status === 401,
    'a refresh token rotated on one instance is spent on the other once its child is used',
    `${used.status}/${reused.status}`,
  );

  // 6. Rate limits count across instances (Redis), per client the balancer saw, whatever it claims.
  const client = `127.${randomInt(1, 255)}.${randomInt(1, 255)}.${randomInt(1, 255)}`;
  const statuses = [];
  const upstreams = new Set();
  for (let i = 0; i <= 10; i++) {
    const res = await request(lb.port, 'POST', '/api/checkmail', {
      localAddress: client,
      headers: { 'x-forwarded-for': `203.0.113.${i}` },
      body: { email: `rl-${i}-${email}` },
    });
    statuses.push(res.status);
    upstreams.add(res.headers['x-upstream']);
  }
  check(
    statuses.slice(0, 10).every((s) => s === 200) && statuses[10] === 429 && upstreams.size === instances.length,
    'checkmail from one client: 10 pass across both instances, the 11th is 429 despite a fresh spoofed X-Forwarded-For',
    statuses.join(' '),
  );

  // 7. Production defaults.
  check((await request(lb.port, 'GET', '/api/docs/json')).status === 404, 'no API docs in production (API_DOCS unset)');
  check((await request(lb.port, 'GET', `/api/dev/outbox?to=${encodeURIComponent(email)}`)).status === 404, 'no dev outbox in production');
  const page = await request(lb.port, 'GET', '/order');
  check(page.status === 200 && page.body.includes('<div id="root"'), 'the web app is served through the load balancer', `${page.status}`);

  // 8. Graceful shutdown of both.
  for (const instance of instances) instance.child.kill('SIGTERM');
  const codes = await Promise.race([
    Promise.all(instances.map((x) => x.exited)),
    new Promise((resolve) => setTimeout(() => resolve(['timeout']), 30_000).unref()),
  ]);
  check(
    codes.every((c) => c === 0),
    'both instances shut down on SIGTERM with exit 0',
    codes.join(' '),
  );
} catch (error) {
  failures.push(error instanceof Error ? error.message : String(error));
  log(`FAIL ${error instanceof Error ? error.stack : error}`);
} finally {
  await cleanup();
}

if (failures.length > 0) {
  log(`${failures.length} check(s) failed`);
  process.exit(1);
}
log('PASS: two instances, one PostgreSQL, one Redis, behind the round-robin load balancer');
process.exit(0);
