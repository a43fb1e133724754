import { defineConfig } from 'vitest/config';

// One runner for the three workspaces and the scripts; each keeps its own environment (DESIGN "Tests").
export default defineConfig({
  test: {
    projects: [
      'packages/domain',
      'apps/server',
      'apps/web',
      // scripts/ (npm start's builds): plain Node modules, tested as they are.
      { test: { name: 'scripts', include: ['scripts/**/*.test.mjs'], environment: 'node' } },
    ],
  },
});
