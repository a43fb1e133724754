import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * E2E journeys against the real `npm start` (scripts/start.mjs) in Debian's Chromium (ADR 0009).
 * Playwright never downloads a browser: PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 at install time, and the
 * system /usr/bin/chromium is launched (STACK "Gotchas").
 */
const root = import.meta.dirname;
const tmpRoot = path.join(root, '.tmp');
// E2E_PORT lets two checkouts run their journeys side by side (default 3100).
const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);

// STACK "Gotchas": Chromium and Playwright leave profiles in TMPDIR; keep them inside ignored .tmp.
process.env.TMPDIR = path.join(tmpRoot, 'playwright-tmp');
mkdirSync(process.env.TMPDIR, { recursive: true });

// A fresh embedded database each run. The config is evaluated in the runner and again in each worker:
// the runner picks the directory once and its workers inherit it through the environment. Evaluating the
// config deletes nothing: other tools load it too (knip reads it for the test files), and a deletion here
// removed a running suite's database under it. `npm run e2e` (scripts/e2e.mjs) clears older runs' folders.
if (!process.env.E2E_DATA_DIR) process.env.E2E_DATA_DIR = path.join('.tmp', `e2e-data-${Date.now()}`);
const dataDir = process.env.E2E_DATA_DIR;
const origin = `http://localhost:${E2E_PORT}`;

const ci = Boolean(process.env.CI);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // 2 cores shared with the server under test: one browser at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: ci,
  retries: ci ? 1 : 0,
  reporter: 'list',
  // Every axe call also runs the colour rules in dark (ADR 0094): a journey's budget grew with it.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  use: {
    baseURL: origin,
    // A trace costs about a fifth of a journey's time (measured on four files: 126 s against 105 s). In CI the
    // failed journey's retry records one; on a developer's machine, with no retry, every failure keeps its own.
    trace: ci ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      // STACK "Gotchas": these flags, and never --user-data-dir (Playwright manages the profile).
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'desktop',
      testIgnore: /(phone-.*|order-wizard-phone)\.spec\.ts/,
      use: { viewport: { width: 1280, height: 800 } },
    },
    {
      // SPEC §9: below 992 px the side navigation collapses; only the journeys that differ on phones.
      name: 'phone',
      testMatch: /(phone-.*|sign-in|order-wizard-phone|loyalty|chat|profile|cancel-dispute|upgrades|notifications)\.spec\.ts/,
      use: { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: false },
    },
  ],
  webServer: {
    command: 'node scripts/start.mjs',
    url: `${origin}/healthz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: dataDir,
      SKIP_WEB_BUILD: '1',
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      // The journeys read mail from the outbox and follow its links: embedded database, outbox mail,
      // links to this server, whatever the calling shell has set.
      PUBLIC_ORIGIN: origin,
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      SEED_DEMO: '1',
      // The journeys run one after another from one IP, and sign-in allows 10 a minute per IP
      // (CONTRACT "Errors and access"). Each test file presents itself as its own client through
      // X-Forwarded-For (e2e/support.ts), as a load balancer would; so the limit stays in force.
      TRUST_PROXY: '1',
    },
  },
});
