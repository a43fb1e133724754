// One flat config (DESIGN "Layout"); the import rules below fail the build (DESIGN rule 2).
import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';

const dirs = (p) =>
  existsSync(p)
    ? readdirSync(p, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];
const domainIo = ['node:*', 'fs', 'path', 'react', 'react-dom', 'fastify', '@fastify/*', 'pg', '@electric-sql/*'];
const webFeatures = dirs('apps/web/src/features');
const serverModules = dirs('apps/server/src/modules');
// Everything in the server outside modules/ and db/ (db/ holds no module code; its migrations import nothing).
const serverOuter = [
  ...['app.ts', 'services.ts', 'context.ts', 'main.ts', 'ops.ts', 'config.ts'].map((f) => `./apps/server/src/${f}`),
  ...['plugins', 'testing', 'lib'].map((d) => `./apps/server/src/${d}`),
];

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
            // The server's outer layers (app, context, plugins, testing, …) reach a module only through its index.ts.
            ...serverModules.map((m) => ({
              target: serverOuter,
              from: `./apps/server/src/modules/${m}`,
              except: ['./index.ts'],
              message: 'outside modules/, a module is reached only through its index.ts (DESIGN rule 2).',
            })),
            // The seed is the database's first content: only db/ (which runs it), the test harness and the ops CLI import it.
            {
              target: [
                './apps/server/src/modules',
                './apps/server/src/plugins',
                './apps/server/src/lib',
                ...['app.ts', 'services.ts', 'context.ts', 'main.ts', 'config.ts'].map((f) => `./apps/server/src/${f}`),
              ],
              from: ['./apps/server/src/db/seed', './apps/server/src/db/seed.ts'],
              message: 'nothing outside db/ imports db/seed; shared vocabulary (CatalogueKind) lives in packages/domain.',
            },
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
          patterns: [{ group: domainIo, message: 'the domain package has no I/O, no React, no Fastify.' }],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...[
          'fetch',
          'XMLHttpRequest',
          'WebSocket',
          'document',
          'window',
          'localStorage',
          'sessionStorage',
          'navigator',
          'location',
          'process',
          'setTimeout',
          'setInterval',
        ].map((name) => ({ name, message: 'no I/O, timers or environment in the domain package (DESIGN rule 1).' })),
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'time is a parameter (`now`), never read inside the domain.',
        },
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'time is a parameter (`now`), never read inside the domain.',
        },
      ],
    },
  },
  {
    // A domain index.ts is the context's face and only re-exports: the rules and schemas live in files named
    // for what they hold (ADR 0055).
    files: ['packages/domain/src/**/index.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'Program > :not(ExportAllDeclaration, ExportNamedDeclaration[source])',
          message: 'a domain index.ts only re-exports (ADR 0055); put this in a file named for what it holds.',
        },
      ],
    },
  },
  {
    // The domain's eager `rules` halves load with the first paint: no zod, not even through a context's wire
    // schemas (ADR 0020); a type from them is erased and allowed.
    files: ['packages/domain/src/**/rules/**/*.ts'],
    ignores: ['packages/domain/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: domainIo, message: 'the domain package has no I/O, no React, no Fastify.' },
            { group: ['zod', 'zod/*'], message: 'the rules halves import no zod (ADR 0020).' },
            {
              regex: '(^|/)(wire|detail)$|^\\.\\.(/index)?$|^@app/domain',
              allowTypeImports: true,
              message: 'a rules half imports values only from other rules halves (zod-free); types are fine.',
            },
          ],
        },
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
    // SQL only in *.repo.ts and db/ (DESIGN rule 2): the query methods are not called, and no SQL text is
    // written, anywhere else in the server. The test harness (testing/) creates and drops test databases;
    // /healthz's `SELECT 1` is the probe itself.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/*.repo.ts',
      'apps/server/src/db/**',
      'apps/server/src/**/*.test.ts',
      'apps/server/src/testing/**',
      'apps/server/src/modules/health/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'CallExpression[callee.property.name=/^(query|exec)$/][callee.object.name=/^(db|tx|pool|client|ctx)$|[dD]b$/]',
          message: 'SQL lives in *.repo.ts and db/.',
        },
        {
          selector: "CallExpression[callee.property.name='query'][callee.object.property.name='db']",
          message: 'SQL lives in *.repo.ts and db/.',
        },
        {
          selector:
            'Literal[value=/^\\s*(SELECT|INSERT\\s+INTO|UPDATE\\s+\\w+\\s+SET|DELETE\\s+FROM|WITH\\s+\\w+\\s+AS)\\b/], TemplateElement[value.raw=/^\\s*(SELECT|INSERT\\s+INTO|UPDATE\\s+\\w+\\s+SET|DELETE\\s+FROM|WITH\\s+\\w+\\s+AS)\\b/]',
          message: 'SQL text lives in *.repo.ts and db/.',
        },
      ],
    },
  },
  {
    // Statuses and roles in SQL are parameters (or interpolated) from the domain's constants, never numbers
    // written into the SQL text (ADR 0054): `status_id = 2`, `o.status_id IN (1, 10)`, `role <> 3` fail here.
    // Migrations (.sql) are history and keep their literals.
    files: ['apps/server/src/**/*.repo.ts', 'apps/server/src/db/**/*.ts'],
    ignores: ['apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'Literal[value=/\\b(\\w*status_id|role)\\s*(=|<>|!=|>=|<=|>|<|(NOT\\s+)?IN\\s*\\()\\s*\\d/i], TemplateElement[value.raw=/\\b(\\w*status_id|role)\\s*(=|<>|!=|>=|<=|>|<|(NOT\\s+)?IN\\s*\\()\\s*\\d/i]',
          message:
            'a status or role in SQL is a parameter from the domain constants (ORDER_STATUS, ROLE, …), never a number in the text (ADR 0054).',
        },
        {
          // The chat's message directions (SPEC §3: 1, 2 the customer's, 3 the writer's, 6 support's) likewise:
          // `m.direction IN (1, 2)`, `direction = 3`, `CASE f.direction WHEN 3` fail here (ADR 0046).
          selector:
            'Literal[value=/\\b\\w*direction\\s*(=|<>|!=|>=|<=|>|<|(NOT\\s+)?IN\\s*\\()\\s*\\d|\\bCASE\\s+[\\w.]*direction\\s+WHEN\\s+\\d/i], TemplateElement[value.raw=/\\b\\w*direction\\s*(=|<>|!=|>=|<=|>|<|(NOT\\s+)?IN\\s*\\()\\s*\\d|\\bCASE\\s+[\\w.]*direction\\s+WHEN\\s+\\d/i]',
          message:
            'a message direction in SQL comes from the domain constants (MESSAGE_DIRECTION, CUSTOMER_DIRECTIONS, STAFF_DIRECTIONS), never a number in the text.',
        },
      ],
    },
  },
  {
    // Only *.routes.ts, *.socket.ts and a module's index.ts (its Fastify plugin) know Fastify types (DESIGN rule 2):
    // services, repositories and helpers take plain objects and lib/logger.ts's Logger.
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: [
      'apps/server/src/modules/**/*.routes.ts',
      'apps/server/src/modules/**/*.socket.ts',
      'apps/server/src/modules/**/index.ts',
      'apps/server/src/modules/**/*.test.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', 'fastify-*', '@fastify/*'],
              message: 'only *.routes.ts, *.socket.ts and index.ts know Fastify types (DESIGN rule 2).',
            },
          ],
        },
      ],
    },
  },
  {
    // Command-line scripts and benchmarks report on stdout.
    files: ['scripts/**/*.mjs', 'bench/**/*.{js,mjs,ts}'],
    rules: { 'no-console': 'off' },
  },
  {
    // ADR 0088: the Web Push service worker, served as it is.
    files: ['apps/web/public/sw.js'],
    languageOptions: { globals: { ...globals.serviceworker }, sourceType: 'script' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // One chat client (ADR 0076): the web app's only socket is opened in lib/chat/connection.ts; a feature that
    // needs live events extends the chat engine (lib/chat) instead of opening a socket of its own.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/chat/connection.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='WebSocket'], NewExpression[callee.property.name='WebSocket']",
          message: 'the web app has one socket, in lib/chat/connection.ts: extend the chat engine (ADR 0076).',
        },
      ],
    },
  },
  {
    // One kit instead of copies (ADR 0079): what the browser keeps goes through lib/persisted.ts (storage may be
    // missing, refused or full), and every upload through postForm in lib/upload.ts (progress, status, errors,
    // the answer's schema). Tests set storage up directly.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/persisted.ts', 'apps/web/src/lib/upload.ts', 'apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/testing/**'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'localStorage', message: 'read and write it through lib/persisted.ts (ADR 0079).' },
        { name: 'sessionStorage', message: 'read and write it through lib/persisted.ts (ADR 0079).' },
        { name: 'XMLHttpRequest', message: 'upload with postForm of lib/upload.ts (ADR 0079).' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'localStorage', message: 'read and write it through lib/persisted.ts (ADR 0079).' },
        { object: 'window', property: 'sessionStorage', message: 'read and write it through lib/persisted.ts (ADR 0079).' },
        { object: 'window', property: 'XMLHttpRequest', message: 'upload with postForm of lib/upload.ts (ADR 0079).' },
      ],
    },
  },
  // Accessibility of the markup (UI contract; axe-core checks the rendered pages in e2e).
  { ...jsxA11y.flatConfigs.recommended, files: ['apps/web/src/**/*.tsx'] },
);
