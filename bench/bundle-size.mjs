// The JavaScript /login and /order need before their first paint, gzip-compressed, against budgets.
// Reads a finished web build (apps/web/dist): the entry script and modulepreload links of index.html,
// the entry chunk's static imports followed recursively through Vite's manifest (dynamic imports are
// loaded later and do not count), plus the lazy chunk of the login route and its static imports.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

// STACK "Measured ceilings": React + react-dom alone are about 68 kB gzip, react-router 30 kB,
// Radix Dialog 17 kB, react-hook-form 13 kB, react-query 7.5 kB. The sign-in page needs about all of
// them; 200 kB leaves room for the app's own code and a schema library, not for a second framework.
export const LOGIN_JS_BUDGET_BYTES = 200_000;
// ADR 0025: the order wizard, the page ads land on, loaded at most 100 KiB of JS before it showed its first
// step. ADR 0064: the server draws that step now, with no JS at all; what is counted is the JS before the
// step works (hydrated), which includes the hydration's own code (the decision to hydrate, the session
// hint, the tree shared with the server: 0.6 kB gzip), hence 101 KiB.
export const ORDER_JS_BUDGET_BYTES = 101 * 1024;

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');

const gzipBytes = (file) => gzipSync(readFileSync(path.join(dist, file))).length;
const rawBytes = (file) => readFileSync(path.join(dist, file)).length;
// kB as Vite prints them (1000 bytes), so the numbers compare with `vite build` output.
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

/** Asset paths (relative to dist) of the entry script and the modulepreload links in index.html. */
const htmlScripts = (html) => {
  const found = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    const isModuleScript = tag.startsWith('<script') && /type=["']module["']/.test(tag);
    const isPreload = tag.startsWith('<link') && /rel=["']modulepreload["']/.test(tag);
    const url = /(?:src|href)=["']([^"']+)["']/.exec(tag)?.[1];
    if ((isModuleScript || isPreload) && url && !/^https?:/.test(url)) found.push(url.replace(/^\//, ''));
  }
  return found;
};

/** Manifest keys of a chunk and its static imports, recursively. */
const staticClosure = (manifest, key, seen = new Set()) => {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) staticClosure(manifest, dep, seen);
  return seen;
};

/** The manifest key of a route module (src/app/routes/<route>.tsx or <route>/index.tsx), if the build has one. */
const routeKey = (manifest, route) =>
  Object.keys(manifest).find((key) => new RegExp(`(^|/)src/app/routes/${route}(\\.|/index\\.)(t|j)sx?$`).test(key));

export const measureLoginBundle = () => measureRouteBundle('login');

export const measureRouteBundle = (route) => {
  const indexHtml = path.join(dist, 'index.html');
  const manifestFile = path.join(dist, '.vite', 'manifest.json');
  if (!existsSync(indexHtml)) throw new Error('apps/web/dist/index.html is missing: run `npm run build` first.');
  if (!existsSync(manifestFile))
    throw new Error('apps/web/dist/.vite/manifest.json is missing: build.manifest must be on in apps/web/vite.config.ts.');
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));

  const rows = new Map(); // file -> reason
  const add = (file, reason) => {
    if (file.endsWith('.js') && !rows.has(file)) rows.set(file, reason);
  };

  for (const file of htmlScripts(readFileSync(indexHtml, 'utf8'))) {
    add(file, 'index.html');
    const key = byFile.get(file);
    if (key) for (const dep of staticClosure(manifest, key)) add(manifest[dep].file, 'static import');
  }
  const loginKey = routeKey(manifest, route);
  if (loginKey) {
    for (const dep of staticClosure(manifest, loginKey)) add(manifest[dep].file, dep === loginKey ? `route ${loginKey}` : 'route import');
  }
  // Dynamic imports of the entry that are not routes (e.g. the domain schemas the startup parses
  // responses with, ADR 0020): they load later, in parallel with requests, so they are listed apart.
  const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const later = (entryKey ? (manifest[entryKey].dynamicImports ?? []) : [])
    .filter((key) => !/(^|\/)src\/app\/routes\//.test(key))
    .flatMap((key) => [...staticClosure(manifest, key)])
    .map((key) => manifest[key].file)
    .filter((file, i, all) => file.endsWith('.js') && !rows.has(file) && all.indexOf(file) === i)
    .map((file) => ({ file, raw: rawBytes(file), gzip: gzipBytes(file) }));
  const css = new Set();
  for (const chunk of Object.values(manifest)) if (chunk.isEntry) for (const file of chunk.css ?? []) css.add(file);

  const files = [...rows].map(([file, reason]) => ({ file, reason, raw: rawBytes(file), gzip: gzipBytes(file) }));
  return {
    files,
    route,
    loginRoute: loginKey ?? null,
    totalGzip: files.reduce((sum, f) => sum + f.gzip, 0),
    totalRaw: files.reduce((sum, f) => sum + f.raw, 0),
    css: [...css].map((file) => ({ file, raw: rawBytes(file), gzip: gzipBytes(file) })),
    later,
  };
};

export const printLoginBundle = (result, budget = LOGIN_JS_BUDGET_BYTES) => {
  const pad = Math.max(12, ...[...result.files, ...result.later, ...result.css].map((f) => f.file.length));
  console.info(`JavaScript loaded by /${result.route} before first paint (gzip)`);
  console.info(`${'file'.padEnd(pad)}  ${'raw'.padStart(10)}  ${'gzip'.padStart(10)}  why`);
  for (const f of result.files) console.info(`${f.file.padEnd(pad)}  ${kB(f.raw).padStart(10)}  ${kB(f.gzip).padStart(10)}  ${f.reason}`);
  console.info(`${'total JS'.padEnd(pad)}  ${kB(result.totalRaw).padStart(10)}  ${kB(result.totalGzip).padStart(10)}`);
  for (const f of result.later)
    console.info(`${f.file.padEnd(pad)}  ${kB(f.raw).padStart(10)}  ${kB(f.gzip).padStart(10)}  dynamic import of the entry (not counted)`);
  for (const f of result.css)
    console.info(`${f.file.padEnd(pad)}  ${kB(f.raw).padStart(10)}  ${kB(f.gzip).padStart(10)}  stylesheet (not counted)`);
  if (!result.loginRoute)
    console.info(
      `note: no lazy chunk for src/app/routes/${result.route}* in the manifest (the route is in the entry chunk or named otherwise).`,
    );
  const within = result.totalGzip <= budget;
  console.info(
    `budget: ${kB(result.totalGzip)} of ${kB(budget)} gzip (${Math.round((result.totalGzip / budget) * 100)} %) ${within ? 'OK' : 'OVER BUDGET'}`,
  );
  return within;
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const login = printLoginBundle(measureLoginBundle());
    console.info('');
    const order = printLoginBundle(measureRouteBundle('order'), ORDER_JS_BUDGET_BYTES);
    process.exitCode = login && order ? 0 : 1;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
