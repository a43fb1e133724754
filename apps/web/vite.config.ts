import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { signedInChunks } from './signed-in-chunks';

/**
 * ADR 0040: every built script, style sheet and SVG of 1 KiB or more also as .br (quality 11) and .gz
 * (level 9), compressed once here; the server sends them as they are (@fastify/static `preCompressed`).
 */
const precompress = (): Plugin => {
  let outDir = '';
  return {
    name: 'precompress',
    apply: 'build',
    // The server render's module (ADR 0064) is read from disk by the server, never sent: nothing to compress.
    applyToEnvironment: (environment) => environment.name === 'client',
    configResolved: (config) => {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: () => {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
          e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
        );
      for (const file of walk(outDir)) {
        if (!/\.(js|css|svg)$/.test(file) || statSync(file).size < 1024) continue;
        const body = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
};

const signedIn = signedInChunks();

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress(), signedIn.plugin],
  resolve: {
    alias: [
      { find: '@', replacement: path.resolve(import.meta.dirname, 'src') },
      // The shim is for React < 18; React 19 has the hook itself (ADR 0028).
      {
        find: /^use-sync-external-store\/shim(\/index\.js)?$/,
        replacement: path.resolve(import.meta.dirname, 'src/lib/use-sync-external-store.ts'),
      },
    ],
  },
  // `vite build` builds both: the browser's app, then the module the server renders the first pages with
  // (ADR 0064), self-contained (React and every package inside) so that the server needs none of them.
  builder: {},
  environments: {
    ssr: {
      resolve: { noExternal: true },
      build: {
        outDir: 'dist/ssr',
        emptyOutDir: true,
        copyPublicDir: false,
        manifest: false,
        rolldownOptions: { input: 'src/entry-server.tsx' },
      },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
    manifest: true,
    // The server writes <link rel="modulepreload"> for the first page's code (ADR 0040); a browser without
    // it (Safari before 17) fetches that code when the entry imports it. Its polyfill is not worth the
    // entry's bytes (ADR 0062), and neither is Vite's preload helper around every dynamic import: the code
    // a page may load later is already in the HTTP cache once the page is idle (prefetch-later-code.ts).
    modulePreload: false,
    // Country flags stay files of their own (ADR 0091): inlined, all 540 would weigh down the style sheet
    // that the phone input loads; as files, only the flags on screen are fetched. The chat's 39 emoji
    // pictures too (ADR 0095): the chat's code stays small, and a picture is fetched once, when first shown.
    assetsInlineLimit: (file) =>
      ['flag-icons/flags', `flag-icons${path.sep}flags`, '@twemoji/svg/', `@twemoji${path.sep}svg${path.sep}`].some((part) =>
        file.includes(part),
      )
        ? false
        : undefined,
    // Everything the entry needs statically in one chunk: one request and one gzip stream for the code
    // every page runs first (React, the query cache, the router, the shell, the API client) (ADR 0028).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'] },
            // The price check's schema (ADR 0065): the order form's wire half, on its own. Left to itself the
            // bundler put it with the checkout step, so checking the first price evaluated the phone library too.
            {
              name: 'order-form',
              test: /packages[\\/]domain[\\/]src[\\/]order-form[\\/](index|wire|submission)\.ts$/,
              includeDependenciesRecursively: false,
            },
            { name: signedIn.name, includeDependenciesRecursively: false },
          ],
        },
      },
    },
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
