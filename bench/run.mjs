// `npm run bench`: benchmarks with their budgets (DESIGN "Tests"); not part of `npm test`.
// Builds the web app (skipped with SKIP_WEB_BUILD=1 when apps/web/dist exists), then measures the
// JavaScript /login and /order load before first paint (from the build's manifest, and as Chromium loads it),
// Lighthouse on /order and /login against a bare React page (ADR 0040), PUT …/calcs against a bare route with the same
// schema and price function (ADR 0026), the order list route against a bare route on the raw
// driver (ADR 0021; PostgreSQL too with BENCH_DATABASE_URL or TEST_DATABASE_URL), the server's memory
// while a 100 MB upload streams in, and `npm start` itself: cold and warm start time, idle memory of its
// process tree (ADR 0031), and the notifications' mail queue and request latency (ADR 0088; with
// BENCH_DATABASE_URL or TEST_DATABASE_URL). Exits 1 when a budget is exceeded.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { measureLoginBundle, measureRouteBundle, ORDER_JS_BUDGET_BYTES, printLoginBundle } from './bundle-size.mjs';
import { runCalcsBench } from './calcs.mjs';
import { runFirstPaintBench } from './first-paint.mjs';
import { runIdleMemoryBench } from './idle-memory.mjs';
import { runLighthouseBench } from './lighthouse.mjs';
import { printNotificationsBench, runNotificationsBench } from './notifications.mjs';
import { runOrderListBench } from './order-list.mjs';
import { runStartTimeBench } from './start-time.mjs';
import { runUploadMemoryBench } from './upload-memory.mjs';

const root = path.resolve(import.meta.dirname, '..');
const built = existsSync(path.join(root, 'apps/web/dist/.vite/manifest.json'));
if (!(process.env.SKIP_WEB_BUILD === '1' && built)) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', 'build', '-w', '@app/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

console.info('\n== bundle size');
const loginWithin = printLoginBundle(measureLoginBundle());
console.info('');
// ADR 0025, 0028: what /order loads before its first paint.
const within = printLoginBundle(measureRouteBundle('order'), ORDER_JS_BUDGET_BYTES) && loginWithin;

console.info('\n== what Chromium loads before /order shows its first step (ADR 0025, 0028)');
const paintWithin = await runFirstPaintBench();

console.info('\n== Lighthouse: /order and /login against a bare React page (ADR 0040)');
const lighthouseWithin = await runLighthouseBench({ build: false });

console.info('\n== PUT …/orders/calcs against a bare route with the same schema and price function (ADR 0026)');
const calcsWithin = await runCalcsBench();

console.info('\n== order list (1,000 orders of one customer among 100,000)');
const listWithin = await runOrderListBench();

console.info('\n== memory while streaming a 100 MB upload');
const uploadWithin = await runUploadMemoryBench();

console.info('\n== npm start: cold and warm start to /healthz (ADR 0058)');
const startWithin = await runStartTimeBench();

console.info('\n== npm start: idle memory of the whole process tree on the demo data (ADR 0031)');
const idleWithin = await runIdleMemoryBench();

console.info('\n== notifications: mail queue throughput, and what the job adds to the requests that make events (ADR 0088)');
let notifyWithin = true;
if (process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL) notifyWithin = printNotificationsBench(await runNotificationsBench());
else console.info('-- skipped: it needs PostgreSQL (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');

process.exitCode =
  within && paintWithin && lighthouseWithin && calcsWithin && listWithin && uploadWithin && startWithin && idleWithin && notifyWithin
    ? 0
    : 1;
