// ADR 0040: zod compiles fast object parsers with `new Function`, and probes for it once, which the CSP
// (`script-src 'self'`, no 'unsafe-eval') refuses: a console error on every visit. The web app runs zod
// without that compiler (`z.config({ jitless: true })`). zod keeps its configuration on
// `globalThis.__zod_globalConfig` (shared by every copy of zod on the page) and reads it when a schema is
// built; setting it here, first thing in main.tsx, keeps zod itself out of the first chunk (ADR 0028),
// where `import { config } from 'zod'` would have put 4 kB of it. zod-config.test.ts checks that zod
// sees the setting.
declare global {
  var __zod_globalConfig: Record<string, unknown> | undefined;
}

(globalThis.__zod_globalConfig ??= {}).jitless = true;

export {};
