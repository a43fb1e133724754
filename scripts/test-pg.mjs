// `npm run test:pg`: the server suite again on a PostgreSQL server (ADR 0009). With TEST_DATABASE_URL
// set, every server test file creates its own fresh database on that server and drops it afterwards.
import { spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const url = process.env.TEST_DATABASE_URL;

if (!url) {
  console.info('test:pg skipped: the PostgreSQL-server pass runs only with TEST_DATABASE_URL=postgres://… set.');
  process.exit(0);
}

const shown = url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@'); // never print a password
console.info(`test:pg: server tests on PostgreSQL at ${shown}`);
// scripts/vitest.mjs repeats the error lines at the end of the output when the run fails.
const child = spawn(process.execPath, [path.join(root, 'scripts/vitest.mjs'), '--project', 'server', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, TEST_DATABASE_URL: url, TEST_PG_PASS: '1' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
