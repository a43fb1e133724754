// `npm start`: bring the two builds up to date, then run the server in this very process (ADR 0030).
// - The web app (Vite) and the server (esbuild, one ES module) are rebuilt only when their inputs
//   changed since their last build (scripts/builds.mjs); the web app always as a production build,
//   whatever NODE_ENV the server runs with (ADR 0057).
// - The server's bundle is imported here: no TypeScript loader and no wrapper process beside it, so
//   signals reach the server directly and its exit code is this process's exit code.
// - Under a supervisor (ADR 0075): package.json runs this file with `exec`, so npm's shell is replaced by
//   this process and the SIGTERM or SIGINT npm forwards reaches the server, and npm exits only once the
//   server has shut down. Should the process that started this one go away all the same (npm killed
//   with SIGKILL, a shell that does not forward signals), the server shuts down gracefully by itself
//   instead of living on as an orphan that holds the port and the embedded database's lock.
// SKIP_WEB_BUILD=1 serves whatever apps/web/dist holds without looking at it (the e2e run builds once,
// then starts); it builds only when there is no build at all. With WEB_DIST_DIR set to another folder in
// the environment, the server serves that folder and apps/web/dist is not built.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  buildServer,
  checkBuild,
  SERVER_BUILD_INPUTS,
  WEB_BUILD_INPUTS,
  webBuildCommand,
  webBuildEnv,
  writeBuildStamp,
} from './builds.mjs';

const root = path.resolve(import.meta.dirname, '..');
const webDist = path.join(root, 'apps/web/dist');
const serverDist = path.join(root, 'apps/server/dist');

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

/**
 * Calls `onGone` once, when the process that started this one has gone: this process was then handed to
 * another parent (init or a subreaper), so its parent id changed. Polls every `intervalMs`; the timer
 * never keeps the process alive.
 */
const watchParent = (onGone, intervalMs = 250) => {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone(parent);
  }, intervalMs);
  timer.unref();
};
// Only under `npm start` / `npm run chat` (npm names the script in npm_lifecycle_script): started by hand
// in the background (`node scripts/start.mjs &`, nohup, setsid), the server outlives its shell on purpose.
// The server's own SIGTERM handler shuts it down gracefully (ADR 0033); during a build, run() passes the
// signal to the build.
if (/\bscripts\/start\.mjs\b/.test(process.env.npm_lifecycle_script ?? '')) {
  watchParent((parent) => {
    console.info(`npm start: the process that started this one (pid ${parent}) has gone; shutting down.`);
    process.kill(process.pid, 'SIGTERM');
  });
}

// `npm run chat` (`start.mjs --chat`): the chat module alone, from the same bundle and configuration (ADR 0048,
// ADR 0048); it serves no web app, so none is built.
const chatOnly = process.argv.includes('--chat');
if (chatOnly) process.env.SERVER_ROLE = 'chat';
// WEB_DIST_DIR naming another folder: the server serves that one, so apps/web/dist is not built (ADR 0075).
const otherWebDist = process.env.WEB_DIST_DIR !== undefined && path.resolve(process.env.WEB_DIST_DIR) !== webDist;
const skipWeb = chatOnly || otherWebDist || (process.env.SKIP_WEB_BUILD === '1' && existsSync(path.join(webDist, 'index.html')));
if (!chatOnly && process.env.SKIP_WEB_BUILD === '1' && !skipWeb) {
  console.info('SKIP_WEB_BUILD=1 but apps/web/dist is missing: building the web app once.');
}
if (!skipWeb) {
  const web = checkBuild(root, WEB_BUILD_INPUTS, webDist, 'index.html');
  if (!web.current) {
    console.info('Building the web app (its sources changed since the last build, or it was never built).');
    const code = await run({ ...webBuildCommand(root), env: webBuildEnv(process.env) });
    if (code !== 0) {
      console.error(`The web build failed (exit ${code}); the server was not started.`);
      process.exit(code);
    }
    writeBuildStamp(webDist, web.hash, web.stats);
  }
}

const server = checkBuild(root, SERVER_BUILD_INPUTS, serverDist, 'main.mjs');
if (!server.current) {
  console.info('Building the server (its sources changed since the last build, or it was never built).');
  try {
    await buildServer(root);
  } catch (error) {
    console.error(`The server build failed; the server was not started. ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
  writeBuildStamp(serverDist, server.hash, server.stats);
}

await import(pathToFileURL(path.join(serverDist, 'main.mjs')).href);
