import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
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
