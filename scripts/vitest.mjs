// Runs `vitest run` with the given arguments and, when it fails, repeats its error lines at the very end
// of the output: a CI log is often read from its tail, and vitest prints an unhandled error above its
// summary, where a short tail cuts it off.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

// `npm run test:unit` is the embedded-PostgreSQL pass (PGlite); `npm run test:pg` runs the server suite
// again on the server named by TEST_DATABASE_URL and says so with TEST_PG_PASS=1.
const env = { ...process.env };
if (env.TEST_PG_PASS !== '1') {
  delete env.TEST_DATABASE_URL;
  console.info('test:unit: the server tests that need PostgreSQL or Redis (*.pg.test.ts, *.redis.test.ts) run in test:pg, not here.');
}
const child = spawn(npx, ['vitest', 'run', ...process.argv.slice(2)], { cwd: root, stdio: ['inherit', 'pipe', 'pipe'], env });
const lines = [];
const keep = (chunk) => {
  for (const line of chunk.toString('utf8').split('\n')) {
    lines.push(stripVTControlCharacters(line));
    if (lines.length > 20_000) lines.shift();
  }
};
child.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  keep(chunk);
});
child.stderr.on('data', (chunk) => {
  process.stderr.write(chunk);
  keep(chunk);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  const failed = code !== 0 || signal !== null;
  if (failed) {
    const wanted = /(Unhandled (Rejection|Error|Exception)|^\s*(\w*Error|FAIL|AssertionError)\b|originated in|Timeout calling|✗|×)/;
    const found = lines.filter((line) => wanted.test(line)).slice(-15);
    if (found.length > 0) console.error(`\n--- vitest failed; its error lines again:\n${found.join('\n')}`);
  }
  process.exit(code ?? (signal ? 1 : 0));
});
