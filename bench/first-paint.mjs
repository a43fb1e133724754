// The JavaScript a browser really loads before a page's first content works, gzip-compressed (a page the
// server drew, ADR 0064, shows before any script has run, and works once the app has hydrated it).
// `bundle-size.mjs` reads the build's manifest; this one asks Chromium: it starts the product on a fresh
// embedded database, opens the page in /usr/bin/chromium through Playwright, notes in the page when its
// first real content is drawn and usable (for /order: the wizard's first step), and sums the gzip size of every
// script whose request started before that moment. Chunks requested after it are listed, not counted.
//
//   npm run build -w @app/web && node bench/first-paint.mjs            (390 px phone, visitor)
//
// Exit code 1 when /order is over its 101 KiB budget (ADR 0025, 0028, 0064).
/* global document, window, MutationObserver, requestAnimationFrame -- code passed to page.addInitScript and page.evaluate runs in the browser */
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
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SKIP_WEB_BUILD: '1',
      LOG_LEVEL: 'warn',
      PUBLIC_ORIGIN: origin,
      DATABASE_URL: '',
    },
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
 * Opens `url` and finds, in the page, the moment `selector` first matches a visible element (taken at
 * the next animation frame, when it is drawn). Every script whose request started before that moment
 * counts (Resource Timing): a script fetched in parallel still competes with the first paint. Each is
 * counted once, at its gzip size (what a compressing server or CDN sends).
 */
export const measureFirstPaint = async ({ origin, url, selector, viewport = { width: 390, height: 844 } }) => {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  try {
    const page = await browser.newPage({ viewport });
    await page.addInitScript((sel) => {
      // Drawn and usable: a page the server drew (ADR 0064) is inert until the app has hydrated it, so its
      // moment is the hydration, and the JavaScript counted is what the page needs before it works.
      const seen = () =>
        !document.getElementById('root')?.hasAttribute('inert') &&
        [...document.querySelectorAll(sel)].some((el) => el.getBoundingClientRect().height > 0);
      const observer = new MutationObserver(() => {
        if (window.__firstContent !== undefined || !seen()) return;
        window.__firstContent = null;
        observer.disconnect();
        requestAnimationFrame(() => {
          window.__firstContent = performance.now();
        });
      });
      observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['inert'] });
    }, selector);
    await page.goto(`${origin}${url}`);
    await page.waitForFunction(() => typeof window.__firstContent === 'number', undefined, { timeout: 60_000 });
    // What loads next (the deferred response checks' schemas, the later steps): listed, not counted.
    await page.waitForTimeout(3_000);
    const { firstContent, scripts } = await page.evaluate(() => ({
      firstContent: window.__firstContent,
      scripts: performance
        .getEntriesByType('resource')
        .filter((e) => e.initiatorType === 'script' || e.initiatorType === 'link' || /\.js($|\?)/.test(e.name))
        .filter((e) => /\.js($|\?)/.test(e.name))
        .map((e) => ({ url: e.name, start: e.startTime })),
    }));
    const sized = await Promise.all(
      scripts.map(async (s) => {
        const body = Buffer.from(await (await fetch(s.url)).arrayBuffer());
        return { file: new URL(s.url).pathname, start: s.start, raw: body.length, gzip: gzipSync(body).length };
      }),
    );
    const files = sized.filter((f) => f.start < firstContent);
    const after = sized.filter((f) => f.start >= firstContent);
    return {
      url,
      firstContentMs: firstContent,
      files,
      after,
      totalGzip: files.reduce((sum, f) => sum + f.gzip, 0),
      totalRaw: files.reduce((sum, f) => sum + f.raw, 0),
    };
  } finally {
    await browser.close();
  }
};

export const printFirstPaint = (result, budget) => {
  const pad = Math.max(12, ...result.files.map((f) => f.file.length));
  console.info(
    `JavaScript Chromium requested for ${result.url} before its first content works (drawn and usable at ${Math.round(result.firstContentMs)} ms), gzip`,
  );
  for (const f of result.files) console.info(`${f.file.padEnd(pad)}  ${kB(f.raw).padStart(10)}  ${kB(f.gzip).padStart(10)}`);
  console.info(`${'total JS'.padEnd(pad)}  ${kB(result.totalRaw).padStart(10)}  ${kB(result.totalGzip).padStart(10)}`);
  for (const f of result.after)
    console.info(`${f.file.padEnd(pad)}  ${kB(f.raw).padStart(10)}  ${kB(f.gzip).padStart(10)}  after the first content (not counted)`);
  if (budget === undefined) return true;
  const within = result.totalGzip <= budget;
  console.info(
    `budget: ${kB(result.totalGzip)} of ${kB(budget)} gzip (${Math.round((result.totalGzip / budget) * 100)} %) ${within ? 'OK' : 'OVER BUDGET'}`,
  );
  return within;
};

/** The wizard's first step is up when its first field is on screen. */
export const ORDER_STEP_ONE = 'form[aria-label^="Step 1"] input, form[aria-label^="Step 1"] select';

/** Starts the product, measures /order on a phone-sized page, prints it; true when within budget. */
export const runFirstPaintBench = async () => {
  const server = await startServer();
  try {
    const order = await measureFirstPaint({ origin: server.origin, url: '/order', selector: ORDER_STEP_ONE });
    return printFirstPaint(order, ORDER_JS_BUDGET_BYTES);
  } finally {
    server.stop();
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = (await runFirstPaintBench()) ? 0 : 1;
}
