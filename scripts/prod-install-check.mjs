// ADR 0029, 0030: `npm ci --omit=dev && npm start` must work. This clones the repository as committed (HEAD)
// into .tmp, installs it without devDependencies, and then, as an operator would:
//   1. starts it with NODE_ENV=production (PORT and DATA_DIR from a `.env` file, PUBLIC_ORIGIN from the
//      environment) and waits for /healthz 200 and for `/` to answer the web app's HTML;
//   2. stops it with SIGTERM to npm's PID (exit code 0) and adds a staff account with `npm run ops`, the password
//      piped on stdin;
//   3. starts it again: the second start reuses both builds and reaches /healthz.
// `node scripts/prod-install-check.mjs` (CI: .ci/run). Exits 1 with the reason on the first failure.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const work = path.join(root, '.tmp', `prod-install-${Date.now()}`);
const keep = process.env.KEEP_PROD_INSTALL === '1';

const step = (text) => console.info(`\n-- ${text}`);
const fail = (text) => {
  throw new Error(text);
};

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

/** Runs a command to its end, its output shown; `input` is written to its stdin. */
const run = (command, args, { cwd = work, env = process.env, input } = {}) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: [input === undefined ? 'ignore' : 'pipe', 'inherit', 'inherit'] });
    if (input !== undefined) child.stdin.end(input);
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });

/** `npm start` in the clone; resolves once /healthz answers 200, with a stop() that awaits its exit code. */
const start = async (env, origin) => {
  const child = spawn(npm, ['start'], { cwd: work, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal)));
  const startedAt = performance.now();
  const stop = async () => {
    // SIGTERM to npm's PID alone, as a process manager or `docker stop` sends it to the PID it started:
    // npm passes it to the server (its script `exec`s it, ADR 0075) and exits with the server's exit
    // code once it has shut down: 0 after a clean shutdown.
    child.kill('SIGTERM');
    return exited;
  };
  while (performance.now() - startedAt < 300_000) {
    if (child.exitCode !== null) fail(`npm start exited with ${child.exitCode} before /healthz answered`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return { stop, ms: performance.now() - startedAt };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  return fail('npm start did not answer /healthz within 300 s');
};

try {
  step(`git clone of HEAD into ${path.relative(root, work)}`);
  mkdirSync(path.dirname(work), { recursive: true });
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', root, work], { stdio: 'inherit' });

  step('npm ci --omit=dev');
  const installEnv = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', NODE_ENV: 'production' };
  await run(npm, ['ci', '--omit=dev', '--no-audit', '--no-fund'], { env: installEnv });
  // Not typescript: it is an optional peer of cosmiconfig, which the mail templates' mjml reaches (through
  // htmlnano), so npm marks it devOptional and installs it with --omit=dev (ADR 0088). The tools that run
  // only in development must still be absent.
  for (const devOnly of ['vitest', 'eslint', '@playwright/test', 'knip']) {
    if (existsSync(path.join(work, 'node_modules', devOnly)))
      fail(`${devOnly} (a devDependency) was installed: this is no production install`);
  }

  const port = await freePort();
  const origin = `http://localhost:${port}`;
  // PORT and DATA_DIR come from .env (loaded when present); the environment keeps the rest.
  writeFileSync(
    path.join(work, '.env'),
    `# written by scripts/prod-install-check.mjs\nPORT=${port}\nDATA_DIR=./prod-data\nLOG_LEVEL=warn\n`,
  );
  const env = { ...process.env, NODE_ENV: 'production', PUBLIC_ORIGIN: origin };
  for (const name of [
    'PORT',
    'DATA_DIR',
    'DATABASE_URL',
    'REDIS_URL',
    'SMTP_URL',
    'SEED_DEMO',
    'SKIP_WEB_BUILD',
    'WEB_DIST_DIR',
    'LOG_LEVEL',
  ])
    delete env[name];

  step(`NODE_ENV=production PUBLIC_ORIGIN=${origin} npm start (PORT and DATA_DIR from .env)`);
  const first = await start(env, origin);
  console.info(`/healthz 200 after ${(first.ms / 1000).toFixed(1)} s (both builds made)`);
  const home = await fetch(`${origin}/`, { headers: { accept: 'text/html' } });
  const html = await home.text();
  if (
    home.status !== 200 ||
    !/text\/html/.test(home.headers.get('content-type') ?? '') ||
    !/<script type="module"[^>]+src="\/assets\//.test(html)
  ) {
    fail(`GET / answered ${home.status} ${home.headers.get('content-type')}, not the web app's HTML:\n${html.slice(0, 300)}`);
  }
  const script = /<script type="module"[^>]+src="([^"]+)"/.exec(html)?.[1] ?? '';
  if ((await fetch(`${origin}${script}`)).status !== 200) fail(`the app's script ${script} was not served`);
  if (!existsSync(path.join(work, 'prod-data', 'pg', 'PG_VERSION'))) fail('the database is not in DATA_DIR from .env');
  const code = await first.stop();
  if (code !== 0) fail(`npm start exited with ${code} on SIGTERM (expected 0)`);
  console.info('GET / served the web app; SIGTERM: exit code 0');

  step('printf <password> | npm run ops -- staff:add (the password on stdin)');
  await run(
    npm,
    ['run', '--silent', 'ops', '--', 'staff:add', '--role', 'support', '--email', 'ops-check@example.com', '--name', 'Ops Check'],
    {
      env,
      input: 'prod-check-password-1\n',
    },
  );

  step('npm start again: nothing changed, so nothing is rebuilt');
  const second = await start(env, origin);
  console.info(`/healthz 200 after ${(second.ms / 1000).toFixed(1)} s`);
  const signIn = await fetch(`${origin}/api/en/auth/jwt/sign_in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ops-check@example.com', password: 'prod-check-password-1' }),
  });
  console.info(`the staff account signs in: ${signIn.status}`);
  const again = await second.stop();
  if (signIn.status !== 200) fail(`sign-in with the account made by npm run ops answered ${signIn.status}`);
  if (again !== 0) fail(`the second npm start exited with ${again} on SIGTERM`);

  console.info('\nPASS npm ci --omit=dev && npm start');
} catch (error) {
  console.error(`\nFAIL production install: ${error instanceof Error ? error.message : error}`);
  process.exitCode = 1;
} finally {
  if (!keep) rmSync(work, { recursive: true, force: true });
}
