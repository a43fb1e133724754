import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { essayOrderBody, expect, freshEmail, openSignedIn, test, type Tokens } from './support';

/**
 * ADR 0049: "a server restart in the middle of sending". This journey runs its own server (not the
 * suite's), on a port of its own, so it can stop it: the message is stored, the server is killed
 * before the answer leaves, a new server starts on the same data, and the customer's tab delivers the
 * message exactly once by itself (outbox, reconnect with backoff, Idempotency-Key).
 */
test.setTimeout(180_000);
const PORT = Number(process.env.CHAT_RESTART_PORT ?? 3202);
const ORIGIN = `http://localhost:${PORT}`;
const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.tmp', `chat-restart-${Date.now()}`);

const startServer = async (): Promise<ChildProcess> => {
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      SKIP_WEB_BUILD: '1',
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      PUBLIC_ORIGIN: ORIGIN,
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      SEED_DEMO: '1',
      TRUST_PROXY: '1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await expect
    .poll(
      async () =>
        await fetch(`${ORIGIN}/healthz`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 90_000, intervals: [250] },
    )
    .toBe(200);
  return child;
};

const stop = (child: ChildProcess, signal: NodeJS.Signals) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });

let server: ChildProcess | null = null;
let api: APIRequestContext;

test.afterAll(async () => {
  if (server) {
    const running = server;
    const killer = setTimeout(() => running.kill('SIGKILL'), 10_000);
    await stop(running, 'SIGTERM');
    clearTimeout(killer);
  }
  await api?.dispose();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a message whose server dies before answering is delivered once after the restart', async ({ browser }) => {
  server = await startServer();
  api = await playwrightRequest.newContext({ baseURL: ORIGIN, extraHTTPHeaders: { 'X-Forwarded-For': '10.9.9.9' } });
  const email = freshEmail('chat-restart');
  const signUp = await api.post('/api/en/auth/jwt/sign_up', {
    data: {
      email,
      password: 'restart-pass-1',
      firstName: 'Rita',
      lastName: 'Restart',
      phone: '15551234567',
      isEnabledNightCall: false,
      hashDevice: 'a'.repeat(32),
      terms: true,
    },
  });
  expect(signUp.status(), await signUp.text()).toBe(200);
  const customer = (await signUp.json()) as Tokens;
  const order = await api.post('/api/en/sites/categories/1/orders', {
    headers: { Authorization: `Bearer ${customer.accessToken}` },
    data: essayOrderBody('Restart essay'),
  });
  expect(order.status(), await order.text()).toBe(200);
  const orderId = ((await order.json()) as { id: number }).id;
  const staffSignIn = await api.post('/api/en/auth/jwt/sign_in', {
    data: { email: 'support@example.com', password: 'support12345', hashDevice: 'b'.repeat(32) },
  });
  const staff = (await staffSignIn.json()) as Tokens;
  // ADR 0071: paid only through money (a payment support records by hand).
  await api.post(`/api/staff/orders/${orderId}/payments`, {
    headers: { Authorization: `Bearer ${staff.accessToken}` },
    data: { reference: `E2E-RESTART-${orderId}` },
  });
  const history = async () => {
    const response = await api.get(`/chat/api/staff/orders/${orderId}/messages?limit=100`, {
      headers: { Authorization: `Bearer ${staff.accessToken}` },
    });
    return ((await response.json()) as { messages: { body: string }[] }).messages.map((m) => m.body);
  };

  const context = await browser.newContext({ baseURL: ORIGIN, bypassCSP: true });
  const page = await context.newPage();
  await openSignedIn(page, customer, `/orderinfo/${orderId}/messages?panel=support`);
  const log = page.getByRole('log', { name: 'Messages with support' });
  await expect(log).toBeVisible({ timeout: 25_000 });

  // The POST reaches the server and is stored; the server is killed before its answer leaves.
  let intercepted = 0;
  await page.route(`**/chat/api/customers/orders/${orderId}/messages`, async (route) => {
    if (route.request().method() !== 'POST' || intercepted > 0) return route.fallback();
    intercepted += 1;
    await route.fetch();
    await stop(server!, 'SIGKILL');
    await route.abort('connectionreset');
  });
  await page.getByLabel('Message to support').fill('Sent as the server went down');
  await page.getByLabel('Message to support').press('Enter');
  await expect(page.getByText(/Reconnecting…/)).toBeVisible({ timeout: 25_000 });
  // The server may have sent the stored message on the socket before it died: then it already shows,
  // once; otherwise it waits in the outbox. Either way one copy, and the outbox still holds it (the
  // answer never came).
  await expect(log.getByText('Sent as the server went down')).toHaveCount(1);
  expect(
    await page.evaluate(
      () =>
        Object.keys(localStorage).filter(
          (k) => k.startsWith('chatOutbox.v1.') && localStorage.getItem(k)?.includes('Sent as the server went down'),
        ).length,
    ),
  ).toBe(1);

  server = await startServer();
  // Nobody touches the page: the socket comes back by itself and the outbox sends again, same key.
  await expect(log.getByText('Waiting for connection')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByText(/Reconnecting…/)).toBeHidden({ timeout: 60_000 });
  await expect.poll(history, { timeout: 20_000 }).toEqual(['Sent as the server went down']);
  await expect.poll(() => page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('chatOutbox.v1.')).length)).toBe(0);
  await page.waitForTimeout(1_500);
  expect(await history()).toEqual(['Sent as the server went down']);
  await expect(log.getByText('Sent as the server went down')).toHaveCount(1);
  await context.close();
});
