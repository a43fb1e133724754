// What `npm start` runs, built only when out of date (ADR 0030): the web app (Vite, into apps/web/dist)
// and the server (esbuild, one file apps/server/dist/main.mjs). Each build records in a stamp file a hash
// of everything it was built from; `npm start` rebuilds only when that hash differs or the stamp is
// missing (a fresh clone, or a `vite build` of its own, which empties dist).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const STAMP_FILE = '.build-stamp.json';
const ROOT_PACKAGE_FILES = ['package.json', 'package-lock.json'];

/** Folders and files (relative to the repository root) whose content makes the web build. */
export const WEB_BUILD_INPUTS = ['apps/web', 'packages/domain', ...ROOT_PACKAGE_FILES];
/** …and the server's: its sources (the bundle), the domain package it bundles, this script. */
export const SERVER_BUILD_INPUTS = [
  'apps/server/src',
  'apps/server/package.json',
  'packages/domain',
  'scripts/builds.mjs',
  ...ROOT_PACKAGE_FILES,
];

const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.vite', 'testing']);
// Tests are not part of a build: changing one does not make the build stale.
const SKIPPED_FILE = /\.test\.[cm]?[jt]sx?$/;

const listFiles = (root, relative) =>
  readdirSync(path.join(root, relative), { withFileTypes: true }).flatMap((entry) => {
    const child = path.posix.join(relative, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : listFiles(root, child);
    return entry.isFile() && !SKIPPED_FILE.test(entry.name) ? [child] : [];
  });

/** The input files (relative paths), in a fixed order. */
const inputFiles = (root, inputs) =>
  inputs
    .flatMap((input) => {
      const full = path.join(root, input);
      if (!existsSync(full)) return [];
      return statSync(full).isDirectory() ? listFiles(root, input) : [input];
    })
    .sort();

const contentHash = (root, files) => {
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
};

/** sha256 over the path and content of every input file, in a fixed order. */
export const inputsHash = (root, inputs) => contentHash(root, inputFiles(root, inputs));

/**
 * sha256 over the path, size and modification time of every input file: no file is read (ADR 0058). Equal
 * to the stamp's: nothing was touched since the build. Different (a checkout, a copy, an edit): the
 * content hash decides, so a touched but unchanged file costs one hash and no build.
 */
const statsHash = (root, files) => {
  const hash = createHash('sha256');
  for (const file of files) {
    const { size, mtimeMs } = statSync(path.join(root, file));
    hash.update(`${file}\0${size}\0${mtimeMs}\0`);
  }
  return hash.digest('hex');
};

const readStamp = (outDir) => {
  try {
    return JSON.parse(readFileSync(path.join(outDir, STAMP_FILE), 'utf8'));
  } catch {
    return null;
  }
};

/** Whether `outDir` holds a production build (with `entry`) of exactly the inputs hashed as `hash`. */
export const buildIsCurrent = (outDir, entry, hash) => {
  if (!existsSync(path.join(outDir, entry))) return false;
  const stamp = readStamp(outDir);
  return stamp?.inputs === hash && stamp.mode === 'production';
};

/** Written after a successful build, with the hashes taken before it started. */
export const writeBuildStamp = (outDir, hash, stats) => {
  writeFileSync(path.join(outDir, STAMP_FILE), `${JSON.stringify({ inputs: hash, ...(stats ? { stats } : {}), mode: 'production' })}\n`);
};

/**
 * What `npm start` asks before each build (ADR 0030, 0058): `{ current: true }` when `outDir` holds a
 * production build of the inputs as they are; otherwise the hashes to stamp the new build with. The fast
 * path stats the files (no reads); only when their sizes or times moved is their content hashed, and a
 * build whose content is still the same gets its stamp refreshed instead of a rebuild.
 */
export const checkBuild = (root, inputs, outDir, entry) => {
  const files = inputFiles(root, inputs);
  const stats = statsHash(root, files);
  const stamp = existsSync(path.join(outDir, entry)) ? readStamp(outDir) : null;
  if (stamp?.mode === 'production' && stamp.stats === stats && typeof stamp.inputs === 'string') return { current: true };
  const hash = contentHash(root, files);
  if (stamp?.mode === 'production' && stamp.inputs === hash) {
    writeBuildStamp(outDir, hash, stats);
    return { current: true };
  }
  return { current: false, hash, stats };
};

/**
 * The web build's environment: always a production build, whatever NODE_ENV the server runs with
 * (`NODE_ENV=development npm start` must not ship React's development build, ADR 0057).
 */
export const webBuildEnv = (env) => ({ ...env, NODE_ENV: 'production' });

/** `vite build` in production mode, the Vite that apps/web depends on, run from apps/web. */
export const webBuildCommand = (root) => {
  const web = path.join(root, 'apps/web');
  const vite = path.dirname(createRequire(path.join(web, 'package.json')).resolve('vite/package.json'));
  return { command: process.execPath, args: [path.join(vite, 'bin/vite.js'), 'build', '--mode', 'production'], cwd: web };
};

/**
 * Bundles the server (apps/server/src/main.ts and the domain package) into apps/server/dist/main.mjs
 * with esbuild; packages from node_modules stay imports. The bundle runs with plain `node`: no
 * TypeScript loader in the running server (ADR 0030). `import.meta.dirname` in a source file keeps
 * meaning that file's folder (migrations, create-embedded.mjs, the web build are found from it).
 */
export const buildServer = async (root) => {
  const serverDir = path.join(root, 'apps/server');
  const outDir = path.join(serverDir, 'dist');
  const esbuild = await import(pathToFileURL(createRequire(path.join(serverDir, 'package.json')).resolve('esbuild')).href);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  try {
    await buildBundle(esbuild, serverDir, outDir);
  } finally {
    // esbuild keeps a service process for the next build; the server needs none (28 MB).
    await esbuild.stop();
  }
};

const buildBundle = (esbuild, serverDir, outDir) =>
  esbuild.build({
    entryPoints: [path.join(serverDir, 'src/main.ts')],
    outfile: path.join(outDir, 'main.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        name: 'node-modules-external',
        setup(b) {
          // Bare imports (fastify, pg, …) are loaded from node_modules at run time; the workspace's own
          // TypeScript packages (@app/*) are bundled.
          b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@app/') ? undefined : { path: args.path, external: true }));
          b.onLoad({ filter: /\.ts$/ }, (args) => {
            const source = readFileSync(args.path, 'utf8');
            if (!source.includes('import.meta.dirname')) return undefined;
            const fromOut = path.relative(outDir, path.dirname(args.path)).split(path.sep).join('/');
            return {
              contents: source.replaceAll('import.meta.dirname', `(import.meta.dirname + ${JSON.stringify(`/${fromOut}`)})`),
              loader: 'ts',
            };
          });
        },
      },
    ],
  });
