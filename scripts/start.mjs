// `npm start`: bring the two builds up to date, then run the server in this very process (ADR 0030).
// - The web app (Vite) and the server (esbuild, one ES module) are rebuilt only when their inputs
//   changed since their last build (scripts/builds.mjs); the web app always as a production build,
//   whatever NODE_ENV the server runs with (ADR 0057).
// - The server's bundle is imported here: no TypeScript loader and no wrapper process beside it, so
//   signals reach the server directly and its exit code is this process's exit code.
// SKIP_WEB_BUILD=1 serves whatever apps/web/dist holds without looking at it (the e2e run builds once,
// then starts); it builds only when there is no build at all.
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

// `npm run chat` (`start.mjs --chat`): the chat module alone, from the same bundle and configuration (ADR 0048,
// ADR 0048); it serves no web app, so none is built.
const chatOnly = process.argv.includes('--chat');
if (chatOnly) process.env.SERVER_ROLE = 'chat';
const skipWeb = chatOnly || (process.env.SKIP_WEB_BUILD === '1' && existsSync(path.join(webDist, 'index.html')));
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
