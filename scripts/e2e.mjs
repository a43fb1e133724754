// `npm run e2e`: build the web app once, then run Playwright (playwright.config.ts), whose webServer
// starts `scripts/start.mjs` with SKIP_WEB_BUILD=1. Extra arguments go to `playwright test`
// (`npm run e2e -- --project desktop e2e/login.spec.ts`). Playwright never downloads a browser here:
// it launches the system Chromium at /usr/bin/chromium (STACK "Gotchas"), installed first when missing.
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureChromium, thisMachine } from './ensure-chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

// Chromium profiles and Playwright's temporary files stay inside the ignored .tmp (STACK "Gotchas").
const tmp = path.join(root, '.tmp', 'playwright-tmp');
mkdirSync(tmp, { recursive: true });
const env = { ...process.env, TMPDIR: tmp, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };

// Older runs' embedded databases (playwright.config.ts picks a fresh one per run) are of no use any more:
// one run at a time per checkout (the port is fixed). Cleared here, not when the config is evaluated.
for (const entry of readdirSync(path.join(root, '.tmp'))) {
  if (entry.startsWith('e2e-data-')) rmSync(path.join(root, '.tmp', entry), { recursive: true, force: true });
}

const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? (signal ? 1 : 0));
    });
  });

// A fresh machine: Debian's Chromium is installed here when this user may (root, passwordless sudo);
// otherwise the run stops with the one command to run (scripts/ensure-chromium.mjs, ADR 0075).
const chromium = await ensureChromium(thisMachine);
if (!chromium.ok) {
  console.error(chromium.message);
  process.exit(1);
}

const built = await run(npm, ['run', 'build', '-w', '@app/web']);
if (built !== 0) process.exit(built);
process.exit(await run(npx, ['playwright', 'test', ...process.argv.slice(2)]));
