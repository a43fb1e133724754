import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * ADR 0039, secrets in logs: the real server (`tsx src/main.ts`, no SMTP_URL, LOG_LEVEL=trace) goes
 * through sign-up, confirmation, magic link, forgot password and reset, and an account deletion confirmed
 * by its mailed link (ADR 0070); then its whole stdout and
 * stderr are searched for every token and link it issued. None may be there, at any level.
 */
const SERVER_DIR = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'logs-real-run-'));
let server: ChildProcess;
let output = '';
let base = '';

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });

const waitFor = async (predicate: () => boolean, ms: number): Promise<void> => {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error(`server not ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const call = async (method: string, url: string, body?: unknown, bearer?: string): Promise<Response> =>
  fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const outbox = async (to: string): Promise<string> => {
  const res = await call('GET', `/api/dev/outbox?to=${encodeURIComponent(to)}&limit=100`);
  const { messages } = (await res.json()) as { messages: { text: string; html: string }[] };
  return messages.map((m) => `${m.text}\n${m.html}`).join('\n');
};

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: { PATH: '/usr/bin:/bin', NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'trace' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitFor(() => output.includes('ready on'), 60_000);
}, 70_000);

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a real run of the server', () => {
  it('logs no token and no link it mailed, at any level', async () => {
    const secrets = new Set<string>();
    const grab = (text: string, pattern: RegExp): string[] => [...text.matchAll(pattern)].map((m) => m[1] ?? '').filter(Boolean);

    // Sign-up with a password (welcome mail, confirmation link), and without one (magic link in the welcome mail).
    const email = `real-run-${Date.now().toString(36)}@example.com`;
    const signUp = await call('POST', '/api/en/auth/jwt/sign_up', {
      email,
      password: 'real-run-pass-1',
      firstName: 'Ada',
      lastName: 'L',
      phone: '1555123456',
      isEnabledNightCall: false,
      ref_id: null,
    });
    expect(signUp.status).toBe(200);
    const session = (await signUp.json()) as { accessToken: string; refreshToken: string };
    secrets.add(session.accessToken).add(session.refreshToken).add('real-run-pass-1');
    const passwordless = `real-run-np-${Date.now().toString(36)}@example.com`;
    const npSignUp = await call('POST', '/api/en/auth/jwt/sign_up', {
      email: passwordless,
      firstName: 'Bo',
      lastName: '',
      phone: '1555123456',
      isEnabledNightCall: false,
    });
    const npSession = (await npSignUp.json()) as { accessToken: string; refreshToken: string };
    secrets.add(npSession.accessToken).add(npSession.refreshToken);

    // The confirmation link, opened as a browser would (the page) and then confirmed by the app.
    const [confirmToken] = grab(await outbox(email), /confirmEmail=([\w-]+)/g);
    if (!confirmToken) throw new Error('no confirmation link');
    await call('GET', `/profile?confirmEmail=${confirmToken}`);
    expect((await call('PUT', '/api/en/customers/customer/emails/confirm', { token: confirmToken }, session.accessToken)).status).toBe(200);

    // Magic link: request, open the page, sign in through the token in the path.
    expect((await call('POST', '/api/magic_link', { email, target: 'dashboard' })).status).toBe(200);
    for (const token of grab(await outbox(passwordless), /magicLink=([\w-]+)/g)) await call('GET', `/order?magicLink=${token}`);
    const [magicToken] = grab(await outbox(email), /magicLink=([\w-]+)/g);
    if (!magicToken) throw new Error('no magic link');
    await call('GET', `/dashboard?magicLink=${magicToken}`);
    const magic = await call('GET', `/api/en/auth/magic_link/${magicToken}`);
    expect(magic.status).toBe(200);
    const magicSession = (await magic.json()) as { accessToken: string; refreshToken: string };
    secrets.add(magicSession.accessToken).add(magicSession.refreshToken);
    // Used again: a 404, which is logged too.
    expect((await call('GET', `/api/en/auth/magic_link/${magicToken}`)).status).toBe(404);

    // Forgot password, the page, the reset.
    expect((await call('POST', '/forgotpassword', { mail: email })).status).toBe(200);
    const [resetToken] = grab(await outbox(email), /reset-password\?token=([\w-]+)/g);
    if (!resetToken) throw new Error('no reset link');
    await call('GET', `/reset-password?token=${resetToken}`);
    expect((await call('PUT', '/api/en/auth/password/reset', { token: resetToken, password: 'real-run-pass-2' })).status).toBe(200);
    secrets.add('real-run-pass-2');

    // ADR 0070: the account without a password confirms its email, asks for its deletion, opens the mailed
    // page and confirms. The deletion erases its mails, so their tokens are kept before it.
    const [npConfirm] = grab(await outbox(passwordless), /confirmEmail=([\w-]+)/g);
    expect((await call('PUT', '/api/en/customers/customer/emails/confirm', { token: npConfirm }, npSession.accessToken)).status).toBe(200);
    expect((await call('PUT', '/api/en/customers/customer/deactivate', {}, npSession.accessToken)).status).toBe(202);
    const npMails = await outbox(passwordless);
    const [deleteToken] = grab(npMails, /deleteAccount=([\w-]+)/g);
    if (!deleteToken) throw new Error('no deletion link');
    await call('GET', `/profile?deleteAccount=${deleteToken}`);
    expect((await call('PUT', '/api/en/customers/customer/deactivate/confirm', { token: deleteToken }, npSession.accessToken)).status).toBe(
      200,
    );

    for (const mails of [await outbox(email), npMails]) {
      for (const token of grab(mails, /(?:confirmEmail|magicLink|token|deleteAccount)=([\w-]+)/g)) secrets.add(token);
      for (const link of grab(mails, /(https?:\/\/\S+[?&](?:confirmEmail|magicLink|token|deleteAccount)=[\w-]+)/g)) secrets.add(link);
    }
    expect(secrets.size).toBeGreaterThan(8);

    // The log is there: every request above has its lines.
    expect(output).toContain('/api/en/auth/magic_link/');
    expect(output).toContain('/api/en/auth/password/reset');
    expect(output).toContain('/api/en/customers/customer/deactivate/confirm');
    expect(output).toContain('/profile?deleteAccount=');
    const leaked = [...secrets].filter((secret) => output.includes(secret));
    expect(leaked).toEqual([]);
  }, 60_000);
});
