// One flat config (DESIGN "Layout"); the import rules below fail the build (DESIGN rule 2).
import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const dirs = (p) => (existsSync(p) ? readdirSync(p, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : []);
const webFeatures = dirs('apps/web/src/features');
const serverModules = dirs('apps/server/src/modules');

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.tmp/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { 'import-x': importX },
    settings: {
      // Without these, import-x reads only .js files when it follows imports, so no-cycle saw nothing in TypeScript.
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts', '.cts'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['packages/domain/tsconfig.json', 'apps/server/tsconfig.json', 'apps/web/tsconfig.json', 'e2e/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error', 'info'] }],
      eqeqeq: ['error', 'always'],
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            // The domain package is pure: it imports no app.
            { target: './packages/domain', from: './apps', message: 'packages/domain imports no app (DESIGN rule 2).' },
            // Web: shared code -> features -> app, never back; features never import each other.
            { target: './apps/web/src/features', from: './apps/web/src/app', message: 'features never import the app layer.' },
            {
              target: ['./apps/web/src/components', './apps/web/src/lib', './apps/web/src/config', './apps/web/src/hooks'],
              from: ['./apps/web/src/features', './apps/web/src/app'],
              message: 'shared code never imports features or the app layer.',
            },
            ...webFeatures.map((f) => ({
              target: `./apps/web/src/features/${f}`,
              from: './apps/web/src/features',
              except: [`./${f}`],
              message: 'features never import each other; compose them in app/.',
            })),
            // Server: a module imports another only through its index.ts.
            ...serverModules.map((m) => ({
              target: `./apps/server/src/modules/${m}`,
              from: './apps/server/src/modules',
              except: [`./${m}`, ...serverModules.filter((o) => o !== m).map((o) => `./${o}/index.ts`)],
              message: 'a module imports another only through its index.ts.',
            })),
            { target: './apps/server', from: './apps/web', message: 'the server never imports the web app.' },
            { target: './apps/web', from: './apps/server', message: 'the web app never imports the server.' },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/domain/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'react', 'react-dom', 'fastify', '@fastify/*', 'pg', '@electric-sql/*'], message: 'the domain package has no I/O, no React, no Fastify.' },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'WebSocket', 'document', 'window', 'localStorage', 'sessionStorage', 'navigator', 'location', 'process', 'setTimeout', 'setInterval'].map(
          (name) => ({ name, message: 'no I/O, timers or environment in the domain package (DESIGN rule 1).' }),
        ),
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'time is a parameter (`now`), never read inside the domain.' },
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'time is a parameter (`now`), never read inside the domain.' },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/config.ts', 'apps/server/src/**/*.test.ts', 'apps/server/src/testing/**'],
    rules: {
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'only config.ts reads process.env.' }],
    },
  },
  {
    // SQL only in *.repo.ts and db/ (DESIGN rule 2): the query method is not called elsewhere.
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['apps/server/src/modules/**/*.repo.ts', 'apps/server/src/modules/**/*.test.ts', 'apps/server/src/modules/health/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='query']", message: 'SQL lives in *.repo.ts.' },
      ],
    },
  },
  {
    // Command-line scripts and benchmarks report on stdout.
    files: ['scripts/**/*.mjs', 'bench/**/*.{js,mjs,ts}'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
