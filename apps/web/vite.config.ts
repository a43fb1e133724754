import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: [
      { find: '@', replacement: path.resolve(import.meta.dirname, 'src') },
      // The shim is for React < 18; React 19 has the hook itself (ADR 0028).
      { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: path.resolve(import.meta.dirname, 'src/lib/use-sync-external-store.ts') },
    ],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    manifest: true,
    // Everything the entry needs statically in one chunk: one request and one gzip stream for the code
    // every page runs first (React, the query cache, the router, the shell, the API client) (ADR 0028).
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] } } },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/forgotpassword': 'http://localhost:3000',
      '/checkout': 'http://localhost:3000',
      '/sandbox': 'http://localhost:3000',
      '/pp': 'http://localhost:3000',
      '/chat': { target: 'http://localhost:3000', ws: true },
    },
  },
});
