// `npm start`: build the web app, then run the server through tsx (ADR 0008). Signals and the exit
// code pass through, so a process manager (or Playwright's webServer) sees the server itself.
// SKIP_WEB_BUILD=1 skips the build when apps/web/dist already exists (e2e builds once, then starts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const distIndex = path.join(root, 'apps/web/dist/index.html');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs a command with inherited stdio; resolves with its exit code (signals forwarded while it runs). */
const run = (command, args) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: process.env });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      // A child killed by a signal: report it the shell way (128 + signal number).
      resolve(code ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1));
    });
    child.on('error', (error) => {
      console.error(`Could not start ${command}: ${error.message}`);
      resolve(1);
    });
  });

const skipBuild = process.env.SKIP_WEB_BUILD === '1' && existsSync(distIndex);
if (process.env.SKIP_WEB_BUILD === '1' && !skipBuild) {
  console.info('SKIP_WEB_BUILD=1 but apps/web/dist is missing: building the web app once.');
}
if (!skipBuild) {
  const code = await run(npm, ['run', 'build', '-w', '@app/web']);
  if (code !== 0) {
    console.error(`The web build failed (exit ${code}); the server was not started.`);
    process.exit(code);
  }
}

process.exit(await run(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts']));
