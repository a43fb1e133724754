import { defineConfig } from 'vitest/config';

// One runner for the three workspaces and the scripts; each keeps its own environment (DESIGN "Tests").
export default defineConfig({
  test: {
    projects: [
      'packages/domain',
      'apps/server',
      'apps/web',
      // scripts/ (npm start's builds): plain Node modules, tested as they are. One file at a time: the
      // build test and the supervisor test (a real `npm start`) share apps/server/dist.
      { test: { name: 'scripts', include: ['scripts/**/*.test.mjs'], environment: 'node', fileParallelism: false } },
    ],
  },
});
