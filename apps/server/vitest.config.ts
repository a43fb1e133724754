import { defineConfig } from 'vitest/config';

// Tests that need a PostgreSQL server (*.pg.test.ts) or Redis (*.redis.test.ts) run in the server pass
// (`npm run test:pg`, TEST_PG_PASS=1), so `npm run test:unit` passes on a machine with neither running.
const SERVER_ONLY = ['src/**/*.pg.test.ts', 'src/**/*.redis.test.ts'];
const serverPass = process.env.TEST_PG_PASS === '1';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    exclude: serverPass ? [] : SERVER_ONLY,
    environment: 'node',
    globalSetup: ['src/testing/global-setup.ts'],
    // Generous: a busy 2-core machine runs PGlite and argon2 slowly; a timeout is not a check.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // 2 cores: PGlite is CPU-bound, more workers only thrash.
    maxWorkers: 2,
    // A project with its own maxWorkers needs its own group, or a plain `vitest run` over all projects fails.
    sequence: { groupOrder: 1 },
  },
});
