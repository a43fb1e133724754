// The product for the browser benches (bench/lighthouse.mjs, bench/inp.mjs; ADR 0040, 0098): started as in
// production on a fresh embedded database, with the demo data when asked, and the demo customer's session.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureChromium, thisMachine } from '../scripts/ensure-chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');

const waitFor = async (url, child, seconds = 60) => {
  for (let i = 0; i < seconds * 4; i += 1) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${seconds} s`);
};

const serverOn = (dataDir, port, env) =>
  spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });

/**
 * The product, as in production, on a fresh embedded database. With `demo`, CONTRACT "Demo data" is in it
 * (production never seeds it): one development start seeds the database, stops, and production starts on it.
 * `port` defaults to BENCH_PORT, else a random one from 3700.
 */
export const startProduct = async ({
  demo = false,
  port = Number(process.env.BENCH_PORT) || 3700 + Math.floor(Math.random() * 200),
} = {}) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lighthouse-'));
  const origin = `http://127.0.0.1:${port}`;
  let child;
  const stop = () => {
    process.off('exit', stop);
    child?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  // A bench that dies (an uncaught error) leaves no server behind.
  process.on('exit', stop);
  try {
    if (demo) {
      const seeding = serverOn(dataDir, port, { NODE_ENV: 'development', SEED_DEMO: '1' });
      child = seeding;
      // Migrations and the demo's orders, files and chats: minutes on a loaded machine.
      await waitFor(`${origin}/healthz`, seeding, 300);
      const exited = new Promise((resolve) => seeding.once('exit', resolve));
      seeding.kill('SIGTERM');
      await exited;
    }
    child = serverOn(dataDir, port, { NODE_ENV: 'production' });
    await waitFor(`${origin}/healthz`, child, 300);
  } catch (error) {
    stop();
    throw error;
  }
  return { origin, stop };
};

/** packages/domain/src/routes/app-pages.ts SESSION_HINT_COOKIE (this file runs in plain node, without TypeScript). */
export const SESSION_HINT_COOKIE = 'signed_in';

export const DEMO_CUSTOMER = { email: 'demo@example.com', password: 'demo12345' };

/** The demo customer's tokens and the device hash the app would keep (UI contract "Storage"). */
export const signInDemo = async (origin) => {
  const hashDevice = randomBytes(16).toString('hex');
  const response = await fetch(`${origin}/api/en/auth/jwt/sign_in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...DEMO_CUSTOMER, hashDevice }),
  });
  if (!response.ok) throw new Error(`the demo customer's sign-in answered ${response.status}`);
  const { accessToken, refreshToken } = await response.json();
  return { accessToken, refreshToken, hashDevice };
};

/** The demo's in-progress order with a conversation (apps/server/src/db/seed/demo.ts): its id. */
export const demoOrderId = async (origin, session) => {
  const response = await fetch(`${origin}/api/en/sites/categories/1/orders?limit=100&page=1`, {
    headers: { authorization: `Bearer ${session.accessToken}` },
  });
  if (!response.ok) throw new Error(`the demo customer's order list answered ${response.status}`);
  const { orders } = await response.json();
  const order = orders.find((o) => o.status === 3 && o.title.startsWith('Microplastics'));
  if (!order) throw new Error('the demo data has no in-progress order "Microplastics …"');
  return order.id;
};

/** Chromium at /usr/bin/chromium, installed first on a fresh machine as `npm run e2e` does (ADR 0075). */
export const needChromium = async () => {
  const chromium = await ensureChromium(thisMachine);
  if (!chromium.ok) throw new Error(chromium.message);
};
