// Import cycles, type-only and dynamic edges included (import-x/no-cycle skips type-only imports): exits 1 on any (ADR 0046).
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
const require = createRequire(resolve('package.json'));
const ts = require('typescript');
const projects = ['packages/domain', 'apps/server', 'apps/web'];
const edges = new Map();
for (const p of projects) {
  const cfg = ts.getParsedCommandLineOfConfigFile(
    join(p, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  for (const f of cfg.fileNames) {
    if (!/\.(ts|tsx)$/.test(f) || f.includes('node_modules')) continue;
    const info = ts.preProcessFile(readFileSync(f, 'utf8'), true, true);
    const out = new Set();
    for (const imp of info.importedFiles) {
      const r = ts.resolveModuleName(imp.fileName, f, cfg.options, ts.sys).resolvedModule;
      if (r && !r.isExternalLibraryImport && !r.resolvedFileName.includes('node_modules')) out.add(resolve(r.resolvedFileName));
    }
    edges.set(resolve(f), out);
  }
}
let index = 0;
const idx = new Map(),
  low = new Map(),
  stack = [],
  on = new Set(),
  sccs = [];
const strong = (v) => {
  idx.set(v, index);
  low.set(v, index);
  index++;
  stack.push(v);
  on.add(v);
  for (const w of edges.get(v) ?? []) {
    if (!idx.has(w)) {
      strong(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const c = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      c.push(w);
    } while (w !== v);
    if (c.length > 1) sccs.push(c);
  }
};
for (const v of edges.keys()) if (!idx.has(v)) strong(v);
console.info(`import cycles (strongly connected groups, type-only and dynamic edges included): ${sccs.length}`);
for (const c of sccs) console.error('  ' + c.map((f) => f.replace(process.cwd() + '/', '')).join(' <-> '));
if (sccs.length > 0) process.exit(1);
