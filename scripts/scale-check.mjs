// docs/operations.md "Running at scale", run as a test (`npm run scale-check`; CI runs it after `npm test`):
// a production start of three instances at the same moment on one empty PostgreSQL database, one Redis,
// one S3-compatible bucket (s3rver, started here; no shared folder: each instance has its own data
// directory) and one shared secret, behind scripts/round-robin-lb.mjs. Checks that all come up
// (migrations and seed applied once, no error logged), that requests alternate between them and a
// session made on one works on another, that rate limits count across them (Redis) and ignore a spoofed
// X-Forwarded-For, that a file uploaded through one downloads through another (a 302 to a signed URL,
// ADR 0080) and so does a chat attachment, that an instance killed mid-upload leaves no object in the
// bucket and that its restart's sweep removes an orphan object, the production defaults (HSTS, no-store,
// no docs, no outbox), and that all shut down with exit 0.
//
// Needs PostgreSQL (SCALE_PG_URL, else TEST_DATABASE_URL, else postgres://postgres@127.0.0.1:5432/postgres)
// and Redis (SCALE_REDIS_URL, default redis://127.0.0.1:6379). Ports: SCALE_LB_PORT (4002), SCALE_PORTS
// (4012,4013,4014) and SCALE_S3_PORT (4022). Builds the web app once when apps/web/dist is missing.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import S3rver from 's3rver';
import { startLoadBalancer } from './round-robin-lb.mjs';

const root = path.resolve(import.meta.dirname, '..');
const pgUrl = process.env.SCALE_PG_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const redisUrl = process.env.SCALE_REDIS_URL || 'redis://127.0.0.1:6379';
const lbPort = Number(process.env.SCALE_LB_PORT || 4002);
const ports = (process.env.SCALE_PORTS || '4012,4013,4014').split(',').map(Number);
const s3Port = Number(process.env.SCALE_S3_PORT || 4022);
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

// 2. The bucket (a real S3-compatible server from npm, ADR 0080), the load balancer, then the production
// instances started at the same moment, each with its own data directory: no folder is shared.
const bucket = 'scale-files';
const s3Dir = path.join(work, 's3');
const s3 = new S3rver({
  address: '127.0.0.1',
  port: s3Port,
  silent: true,
  directory: s3Dir,
  configureBuckets: [{ name: bucket, configs: [] }],
});
await s3.run();
const s3Endpoint = `http://127.0.0.1:${s3Port}`;
const s3Client = new S3Client({
  endpoint: s3Endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
});
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
  FILES_STORAGE: 's3',
  S3_ENDPOINT: s3Endpoint,
  S3_REGION: 'us-east-1',
  S3_BUCKET: bucket,
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  S3_FORCE_PATH_STYLE: '1',
  SKIP_WEB_BUILD: '1',
  LOG_LEVEL: 'info',
  SHUTDOWN_TIMEOUT_MS: '5000',
};
/** Every instance started, restarts included: the cleanup kills whichever still runs. */
const spawned = [];
const startInstance = (port, i) => {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...sharedEnv, PORT: String(port), DATA_DIR: path.join(work, `data-${i}`) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const instance = { port, child, output: '', exit: undefined };
  child.stdout.on('data', (chunk) => (instance.output += chunk));
  child.stderr.on('data', (chunk) => (instance.output += chunk));
  instance.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve((instance.exit = code ?? signal))));
  spawned.push(instance);
  return instance;
};
const instances = ports.map(startInstance);
log(`started instances on ${ports.join(', ')} behind ${origin} (database ${dbName}, bucket ${bucket} at ${s3Endpoint})`);

const waitHealthy = async (group) => {
  const deadline = Date.now() + 180_000;
  const healthy = new Set();
  while (healthy.size < group.length && Date.now() < deadline && group.every((x) => x.exit === undefined)) {
    for (const instance of group) {
      if (healthy.has(instance.port)) continue;
      const res = await request(instance.port, 'GET', '/healthz').catch(() => undefined);
      if (res?.status === 200) healthy.add(instance.port);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return healthy.size === group.length;
};

/** Every object key of ours in the bucket (32 hex characters, ADR 0080). */
const bucketKeys = async () => {
  const keys = [];
  let ContinuationToken;
  do {
    const page = await s3Client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken }));
    for (const object of page.Contents ?? []) if (/^[0-9a-f]{32}$/.test(object.Key ?? '')) keys.push(object.Key);
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  return keys.sort();
};
const recordedKeys = async () =>
  (await adminQuery(dbUrl.toString(), 'SELECT storage_key FROM order_files UNION SELECT storage_key FROM message_files ORDER BY 1')).map(
    (r) => r.storage_key,
  );
/** Parts of multipart uploads s3rver holds outside the bucket's listing (it cannot list or abort them). */
const partsOnS3rver = () => {
  const dir = path.join(s3Dir, bucket, '._S3rver_uploads');
  if (!existsSync(dir)) return 0;
  return readdirSync(dir, { recursive: true }).filter((name) => /(^|\/)\d+$/.test(String(name))).length;
};
const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** A multipart upload streamed to `port` in 256 KiB writes; `beforeWrite(sent)` may hold the stream. */
const uploadFile = (port, url, token, { name, content, field = 'file', fields = {}, beforeWrite = async () => undefined }) =>
  new Promise((resolve, reject) => {
    const boundary = '----scale-check-boundary';
    const fieldParts = Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('');
    const head = Buffer.from(
      `${fieldParts}--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: url,
        agent: false,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + content.length + tail.length,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    const write = (chunk) => (req.write(chunk) ? Promise.resolve() : new Promise((r) => req.once('drain', r)));
    (async () => {
      await write(head);
      for (let sent = 0; sent < content.length && !req.destroyed; sent += 256 * 1024) {
        await beforeWrite(sent);
        await write(content.subarray(sent, sent + 256 * 1024));
      }
      req.end(tail);
    })().catch(reject);
  });

/** A PDF of `size` bytes with random filler (so a wrong byte anywhere changes the digest). */
const pdfOf = (size) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);

/** Follows a download's 302 to the bucket as a browser does: the status, the name and the digest. */
const followSigned = async (answer) => {
  const location = answer.headers.location ?? '';
  if (answer.status !== 302 || !location.startsWith(`${s3Endpoint}/${bucket}/`))
    return { ok: false, detail: `${answer.status} ${location}` };
  const expires = Number(new URL(location).searchParams.get('X-Amz-Expires'));
  const got = await fetch(location);
  const bytes = Buffer.from(await got.arrayBuffer());
  return {
    ok: got.status === 200 && expires <= 300,
    bytes,
    disposition: got.headers.get('content-disposition'),
    detail: `${got.status}, expires ${expires}`,
  };
};

const checkFiles = async (email, password) => {
  // A new session: the one made at sign-up was ended by the refresh-token reuse above (ADR 0061).
  const signIn = await request(lb.port, 'POST', '/api/en/auth/jwt/sign_in', { body: { email, password, hashDevice: 'scale-files' } });
  check(signIn.status === 200, 'the customer signs in again', `${signIn.status} ${signIn.body}`);
  const { accessToken } = JSON.parse(signIn.body);
  const auth = { authorization: `Bearer ${accessToken}` };
  const order = await request(lb.port, 'POST', '/api/en/sites/categories/1/orders', {
    headers: auth,
    body: {
      idWorkType: 1,
      academicLevel: 1,
      paperFormat: 1,
      paperType: 1,
      subject: 1,
      pages: 1,
      sources: 0,
      idSpacing: 2,
      topic: 'Scale files',
      paperDetails: '',
      urgency: 240,
      premiumWriter: 1,
      originalityReport: 1,
      extraQualityCheck: 1,
      onePageSummary: 1,
    },
  });
  check(order.status === 200, 'the customer places an order', `${order.status} ${order.body}`);
  const orderId = JSON.parse(order.body).id;

  // A 12 MB file (a multipart upload into the bucket) through one instance, downloaded through another.
  const content = pdfOf(12 * 1024 * 1024);
  const uploaded = await uploadFile(lb.port, `/api/en/orders/${orderId}/customers/files`, accessToken, {
    name: 'Scale essay.pdf',
    content,
  });
  check(
    uploaded.status === 200,
    `a 12 MB file is uploaded through ${uploaded.headers['x-upstream']}`,
    `${uploaded.status} ${uploaded.body}`,
  );
  const fileId = JSON.parse(uploaded.body).id;
  const download = await request(lb.port, 'GET', `/api/en/orders/files/${fileId}`, { headers: auth });
  const signed = await followSigned(download);
  check(
    download.headers['x-upstream'] !== uploaded.headers['x-upstream'] && signed.ok && sha256(signed.bytes) === sha256(content),
    `it downloads through ${download.headers['x-upstream']}: a 302 to a signed URL (5 minutes at most), the same bytes`,
    signed.detail,
  );
  check(
    signed.disposition?.includes('filename="Scale essay.pdf"') === true,
    'the bucket answers it as an attachment under its name',
    String(signed.disposition),
  );
  // The web's download link: asked on one instance, followed by the browser on the next (one shared secret).
  const link = await request(lb.port, 'GET', `/api/en/orders/files/${fileId}?link=1`, { headers: auth });
  const ticketed = link.status === 200 ? await request(lb.port, 'GET', JSON.parse(link.body).url) : { status: link.status, headers: {} };
  const viaTicket = await followSigned(ticketed);
  check(
    ticketed.headers['x-upstream'] !== link.headers['x-upstream'] && viaTicket.ok && sha256(viaTicket.bytes) === sha256(content),
    `a download link made on ${link.headers['x-upstream']} works on ${ticketed.headers['x-upstream']} without the bearer token`,
    `${link.status}/${ticketed.status} ${viaTicket.detail}`,
  );

  // A chat attachment sent on one instance, opened from another.
  const note = Buffer.from(`hello from one instance ${randomBytes(4).toString('hex')}`);
  const sent = await uploadFile(lb.port, `/chat/api/customers/orders/${orderId}/messages`, accessToken, {
    name: 'notes.txt',
    content: note,
    field: 'files',
    fields: { direction: '2', message: JSON.stringify({ body: 'see the attachment' }) },
  });
  check(
    sent.status === 200,
    `a chat message with an attachment is sent through ${sent.headers['x-upstream']}`,
    `${sent.status} ${sent.body}`,
  );
  const attachmentId = sent.status === 200 ? JSON.parse(sent.body).files[0].id : 0;
  const opened = await request(lb.port, 'GET', `/chat/api/customers/orders/${orderId}/messages/files/${attachmentId}`, { headers: auth });
  const attachment = await followSigned(opened);
  check(
    opened.headers['x-upstream'] !== sent.headers['x-upstream'] && attachment.ok && attachment.bytes.equals(note),
    `the attachment opens through ${opened.headers['x-upstream']}`,
    attachment.detail,
  );

  // An instance killed mid-upload: once a part has reached the bucket, SIGKILL.
  const victim = instances[instances.length - 1];
  const keysBefore = await bucketKeys();
  const partsBefore = partsOnS3rver();
  let killedAt = 0;
  const doomed = uploadFile(victim.port, `/api/en/orders/${orderId}/customers/files`, accessToken, {
    name: 'cut short.pdf',
    content: pdfOf(40 * 1024 * 1024),
    beforeWrite: async (sentBytes) => {
      if (killedAt > 0 || sentBytes < 20 * 1024 * 1024) return;
      for (let i = 0; i < 150 && partsOnS3rver() === partsBefore; i++) await new Promise((r) => setTimeout(r, 100));
      killedAt = sentBytes;
      victim.child.kill('SIGKILL');
      await victim.exited;
    },
  }).then(
    (answer) => `answered ${answer.status}`,
    (error) => `cut (${error.code ?? error.message})`,
  );
  const outcome = await doomed;
  check(
    killedAt > 0 && partsOnS3rver() > partsBefore,
    `:${victim.port} killed after ${(killedAt / 1024 / 1024).toFixed(0)} MB sent, its multipart upload under way (${outcome})`,
  );
  const [keysAfter, recorded] = await Promise.all([bucketKeys(), recordedKeys()]);
  check(
    JSON.stringify(keysAfter) === JSON.stringify(keysBefore) && JSON.stringify(keysAfter) === JSON.stringify(recorded),
    'the killed upload left no object in the bucket: every object is a recorded file, every recorded file an object',
    `${keysAfter.length} objects, ${recorded.length} rows`,
  );
  log(
    `note: s3rver keeps ${partsOnS3rver()} part(s) of the cut upload outside the bucket's listing (it cannot list or abort multipart uploads; AWS, R2 and MinIO can, and the sweep aborts them: ADR 0080)`,
  );

  // An orphan object (an instance killed between storing a file and recording it), two hours old: the
  // killed instance's restart sweeps it, and nothing recorded.
  const orphan = randomBytes(16).toString('hex');
  await s3Client.send(new PutObjectCommand({ Bucket: bucket, Key: orphan, Body: 'stored, never recorded' }));
  const aged = new Date(Date.now() - 2 * 60 * 60 * 1000);
  utimesSync(path.join(s3Dir, bucket, `${orphan}._S3rver_object`), aged, aged);
  const restarted = startInstance(victim.port, instances.length - 1);
  instances[instances.length - 1] = restarted;
  const back = await waitHealthy([restarted]);
  check(back, `:${victim.port} restarts`, restarted.output);
  const [keysSwept, recordedAfter] = await Promise.all([bucketKeys(), recordedKeys()]);
  check(
    !keysSwept.includes(orphan) &&
      JSON.stringify(keysSwept) === JSON.stringify(recordedAfter) &&
      /orphan upload files removed/.test(restarted.output),
    'its start-time sweep removed the two-hour-old orphan object and kept every recorded file',
    `${keysSwept.length} objects, ${recordedAfter.length} rows`,
  );
  const again = await followSigned(await request(lb.port, 'GET', `/api/en/orders/files/${fileId}`, { headers: auth }));
  check(again.ok && sha256(again.bytes) === sha256(content), 'the first file still downloads after the sweep', again.detail);
  check(
    instances.every((_, i) => !existsSync(path.join(work, `data-${i}`, 'files'))),
    'no instance stored a file on its own disk',
  );
};

const cleanup = async () => {
  for (const instance of spawned) if (instance.exit === undefined) instance.child.kill('SIGKILL');
  await lb.close();
  s3Client.destroy();
  await s3.close().catch(() => undefined);
  await adminQuery(pgUrl, `DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
  rmSync(work, { recursive: true, force: true });
};

try {
  // 3. All come up.
  const allUp = await waitHealthy(instances);
  check(allUp, 'every instance answers /healthz', instances.map((x) => `:${x.port} exit=${x.exit}\n${x.output}`).join('\n'));
  if (!allUp) throw new Error('instances did not start');

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
    'checkmail from one client: 10 pass across the instances, the 11th is 429 despite a fresh spoofed X-Forwarded-For',
    statuses.join(' '),
  );

  // 7. Files on object storage (ADR 0080).
  await checkFiles(email, 'scale-pass-1');

  // 8. Production defaults.
  check((await request(lb.port, 'GET', '/api/docs/json')).status === 404, 'no API docs in production (API_DOCS unset)');
  check((await request(lb.port, 'GET', `/api/dev/outbox?to=${encodeURIComponent(email)}`)).status === 404, 'no dev outbox in production');
  const page = await request(lb.port, 'GET', '/order');
  check(page.status === 200 && page.body.includes('<div id="root"'), 'the web app is served through the load balancer', `${page.status}`);

  // 9. Graceful shutdown of all.
  for (const instance of instances) instance.child.kill('SIGTERM');
  const codes = await Promise.race([
    Promise.all(instances.map((x) => x.exited)),
    new Promise((resolve) => setTimeout(() => resolve(['timeout']), 30_000).unref()),
  ]);
  check(
    codes.every((c) => c === 0),
    'every instance shuts down on SIGTERM with exit 0',
    `${codes.join(' ')}\n${instances.map((x) => `:${x.port}: ${x.output.split('\n').slice(-8).join('\n')}`).join('\n')}`,
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
log(
  `PASS: ${instances.length} instances, one PostgreSQL, one Redis, one S3 bucket and no shared folder, behind the round-robin load balancer`,
);
process.exit(0);
