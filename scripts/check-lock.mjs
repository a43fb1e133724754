// Refuses a package-lock.json that misses an optional platform package (ADR 0029).
// npm writes a lock entry for every platform's binary only when the registry has that binary at the
// locked version; when it has not, the entry is silently left out and `npm ci` then fails with
// "Missing: <binding>@ from lock file". Run by .ci/run before `npm ci`.
import { readFileSync } from 'node:fs';

const lock = JSON.parse(readFileSync(process.argv[2] ?? 'package-lock.json', 'utf8'));
const entries = lock.packages ?? {};

/** Finds `dep` the way Node does: in the package's own node_modules, then in each parent's. */
function resolves(fromPath, dep) {
  let base = fromPath;
  for (;;) {
    if (entries[`${base ? `${base}/` : ''}node_modules/${dep}`]) return true;
    if (!base) return false;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
}

const missing = [];
for (const [path, entry] of Object.entries(entries)) {
  for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
    if (!resolves(path, dep)) missing.push(`${path || '(root)'} -> ${dep}@${entry.optionalDependencies[dep]}`);
  }
}
if (missing.length > 0) {
  console.error(`package-lock.json misses ${missing.length} optional package(s):\n  ${missing.join('\n  ')}`);
  console.error('Pin the parent to a version whose platform packages all exist in the registry (ADR 0029).');
  process.exit(1);
}
console.info(`package-lock.json: every optional platform package is locked (${Object.keys(entries).length} entries)`);
