// The web build `npm start` serves, and when it is out of date (ADR 0030). A build records in
// apps/web/dist/.build-stamp.json a hash of everything it was built from: the web app (sources, public
// files, index.html, Vite config, package.json), the domain package it bundles, and the root package
// files with the lock (the versions of Vite, React and the rest). `npm start` rebuilds only when that
// hash differs or the stamp is missing (a fresh clone, a `vite build` of its own, which empties dist).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const STAMP_FILE = '.build-stamp.json';

/** Folders and files (relative to the repository root) whose content makes the web build. */
export const WEB_BUILD_INPUTS = ['apps/web', 'packages/domain', 'package.json', 'package-lock.json'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.vite']);
// Tests are not part of the bundle: changing one does not make the build stale.
const SKIPPED_FILE = /\.test\.[cm]?[jt]sx?$/;

const listFiles = (root, relative) => {
  const full = path.join(root, relative);
  if (!existsSync(full)) return [];
  return readdirSync(full, { withFileTypes: true }).flatMap((entry) => {
    const child = path.posix.join(relative, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : listFiles(root, child);
    return entry.isFile() && !SKIPPED_FILE.test(entry.name) ? [child] : [];
  });
};

const inputFiles = (root) =>
  WEB_BUILD_INPUTS.flatMap((input) => {
    const full = path.join(root, input);
    if (!existsSync(full)) return [];
    return statSync(full).isDirectory() ? listFiles(root, input) : [input];
  }).sort();

/** sha256 over the path and content of every input file, in a fixed order. */
export const webInputsHash = (root) => {
  const hash = createHash('sha256');
  for (const file of inputFiles(root)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
};

/** Whether `distDir` holds a production build of exactly the current inputs. */
export const webBuildIsCurrent = (root, distDir, inputsHash = webInputsHash(root)) => {
  if (!existsSync(path.join(distDir, 'index.html'))) return false;
  try {
    const stamp = JSON.parse(readFileSync(path.join(distDir, STAMP_FILE), 'utf8'));
    return stamp.inputs === inputsHash && stamp.mode === 'production';
  } catch {
    return false;
  }
};

/** Written after a successful build, with the hash taken before it started. */
export const writeWebBuildStamp = (distDir, inputsHash) => {
  writeFileSync(path.join(distDir, STAMP_FILE), `${JSON.stringify({ inputs: inputsHash, mode: 'production' })}\n`);
};

/**
 * The build's environment: always a production build, whatever NODE_ENV the server runs with
 * (`NODE_ENV=development npm start` must not ship React's development build, issue 13).
 */
export const webBuildEnv = (env) => ({ ...env, NODE_ENV: 'production' });

/** `vite build` in production mode, the Vite that apps/web depends on, run from apps/web. */
export const webBuildCommand = (root) => {
  const web = path.join(root, 'apps/web');
  const vite = path.dirname(createRequire(path.join(web, 'package.json')).resolve('vite/package.json'));
  return { command: process.execPath, args: [path.join(vite, 'bin/vite.js'), 'build', '--mode', 'production'], cwd: web };
};
