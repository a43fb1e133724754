// `npm start`: bring the web build up to date, then run the server in this very process (ADR 0030).
// - The web app is rebuilt only when its inputs changed since the last build (scripts/web-build.mjs),
//   and always as a production build, whatever NODE_ENV the server runs with.
// - The server runs here, through tsx registered in-process (ADR 0008): no wrapper process beside it,
//   so signals reach it directly and its exit code is this process's exit code.
// SKIP_WEB_BUILD=1 serves whatever apps/web/dist holds without looking at it (the e2e run builds once,
// then starts); it builds only when there is no build at all.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { webBuildCommand, webBuildEnv, webBuildIsCurrent, webInputsHash, writeWebBuildStamp } from './web-build.mjs';

const root = path.resolve(import.meta.dirname, '..');
const distDir = path.join(root, 'apps/web/dist');
const serverDir = path.join(root, 'apps/server');

/** Runs a command with inherited stdio; resolves with its exit code (signals forwarded while it runs). */
const run = ({ command, args, cwd, env }) =>
  new Promise((resolve) => {
    const child = spawn(command, args, { cwd, stdio: 'inherit', env });
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

const skip = process.env.SKIP_WEB_BUILD === '1' && existsSync(path.join(distDir, 'index.html'));
if (process.env.SKIP_WEB_BUILD === '1' && !skip) {
  console.info('SKIP_WEB_BUILD=1 but apps/web/dist is missing: building the web app once.');
}
if (!skip) {
  const inputs = webInputsHash(root);
  if (!webBuildIsCurrent(root, distDir, inputs)) {
    console.info('The web app changed since its last build (or was never built): building it.');
    const code = await run({ ...webBuildCommand(root), env: webBuildEnv(process.env) });
    if (code !== 0) {
      console.error(`The web build failed (exit ${code}); the server was not started.`);
      process.exit(code);
    }
    writeWebBuildStamp(distDir, inputs);
  }
}

// `--import tsx`, done here: tsx as the server's own dependency resolves it, then the server's entry.
const requireFromServer = createRequire(path.join(serverDir, 'package.json'));
await import(pathToFileURL(requireFromServer.resolve('tsx')).href);
await import(pathToFileURL(path.join(serverDir, 'src/main.ts')).href);
