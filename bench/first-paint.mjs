// The JavaScript a browser really loads before a page shows its first content, gzip-compressed.
// `bundle-size.mjs` reads the build's manifest; this one asks Chromium: it starts the product on a fresh
// embedded database, opens the page in /usr/bin/chromium through Playwright, records every script
// response until the page's first real content is visible (for /order: the wizard's first step), and
// sums the gzip size of each script body. Chunks that start loading after that moment do not count.
//
//   npm run build -w @app/web && node bench/first-paint.mjs            (390 px phone, visitor)
//
// Exit code 1 when /order is over its 100 KiB budget (issue 3).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { ORDER_JS_BUDGET_BYTES } from './bundle-size.mjs';

const root = path.resolve(import.meta.dirname, '..');
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

/** Starts `scripts/start.mjs` on a free port and a throw-away data directory; resolves with its origin. */
const startServer = async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'first-paint-'));
  const port = 3200 + Math.floor(Math.random() * 500);
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, SKIP_WEB_BUILD: '1', LOG_LEVEL: 'warn', PUBLIC_ORIGIN: origin, DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const stop = () => {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 240; i += 1) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return { origin, stop };
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  stop();
  throw new Error('the server did not start within 60 s');
};

/**
 * Opens `url` and records the scripts loaded until `ready(page)` resolves. Each script is counted once,
 * at its gzip size (what a compressing server or CDN sends).
 */
export const measureFirstPaint = async ({ origin, url, ready, viewport = { width: 390, height: 844 } }) => {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  try {
    const page = await browser.newPage({ viewport });
    const scripts = new Map();
    const later = new Map();
    let painted = false;
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const file = new URL(response.url()).pathname;
      (painted ? later : scripts).set(
        file,
        response.body().then((body) => ({ file, raw: body.length, gzip: gzipSync(body).length })),
      );
    });
    await page.goto(`${origin}${url}`);
    await ready(page);
    painted = true;
    const files = await Promise.all(scripts.values());
    // What loads next (the deferred response checks' schemas, the later steps): listed, not counted.
    await page.waitForTimeout(3_000);
    const after = await Promise.all(later.values());
    return { url, files, after, totalGzip: files.reduce((s, f) => s + f.gzip, 0), totalRaw: files.reduce((s, f) => s + f.raw, 0) };
  } finally {
    await browser.close();
  }
};

export const printFirstPaint = (result, budget) => {
  const pad = Math.max(12, ...result.files.map((f) => f.file.length));
  console.info(`JavaScript Chromium loaded for ${result.url} before its first content (gzip)`);
  for (const f of result.files) console.info(`${f.file.padEnd(pad)}  ${kB(f.raw).padStart(10)}  ${kB(f.gzip).padStart(10)}`);
  console.info(`${'total JS'.padEnd(pad)}  ${kB(result.totalRaw).padStart(10)}  ${kB(result.totalGzip).padStart(10)}`);
  for (const f of result.after) console.info(`${f.file.padEnd(pad)}  ${kB(f.raw).padStart(10)}  ${kB(f.gzip).padStart(10)}  after the first content (not counted)`);
  if (budget === undefined) return true;
  const within = result.totalGzip <= budget;
  console.info(`budget: ${kB(result.totalGzip)} of ${kB(budget)} gzip (${Math.round((result.totalGzip / budget) * 100)} %) ${within ? 'OK' : 'OVER BUDGET'}`);
  return within;
};

/** The wizard's first step is up when its first field can be used. */
export const orderStepOneReady = (page) =>
  page.getByRole('form', { name: /^Step 1/ }).locator('select, input').first().waitFor({ timeout: 60_000 });

/** Starts the product, measures /order on a phone-sized page, prints it; true when within budget. */
export const runFirstPaintBench = async () => {
  const server = await startServer();
  try {
    const order = await measureFirstPaint({ origin: server.origin, url: '/order', ready: orderStepOneReady });
    return printFirstPaint(order, ORDER_JS_BUDGET_BYTES);
  } finally {
    server.stop();
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = (await runFirstPaintBench()) ? 0 : 1;
}
