// `npm run dev`: the server under `tsx watch` (port 3000) and the Vite dev server (port 5173, which
// proxies /api, /chat, … to 3000; see apps/web/vite.config.ts). Both stop together: when one exits,
// or on Ctrl+C, the other is stopped too.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const tsxCli = fileURLToPath(import.meta.resolve('tsx/cli'));
const viteCli = path.join(root, 'node_modules/vite/bin/vite.js');

const children = [
  // `tsx watch` restarts on changes of the server and of the domain package it imports.
  spawn(process.execPath, [tsxCli, 'watch', '--clear-screen=false', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
    env: process.env,
  }),
  // Vite itself rather than `npm run dev`: a direct child receives our signals without npm in between.
  spawn(process.execPath, [viteCli, '--port', '5173', '--strictPort'], {
    cwd: path.join(root, 'apps/web'),
    stdio: 'inherit',
    env: process.env,
  }),
];

let exitCode;
const stopAll = (signal = 'SIGTERM') => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
for (const child of children) {
  child.on('exit', (code) => {
    exitCode ??= code ?? 0;
    stopAll();
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(exitCode);
  });
}
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));
