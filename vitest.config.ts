import { defineConfig } from 'vitest/config';

// One runner for the three workspaces; each keeps its own environment (DESIGN "Tests").
export default defineConfig({
  test: {
    projects: ['packages/domain', 'apps/server', 'apps/web'],
  },
});
