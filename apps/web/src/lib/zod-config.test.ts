import { describe, expect, it, vi } from 'vitest';

describe('zod without its eval compiler (ADR 0040)', () => {
  it('is configured jitless before any schema is built, so it never probes `new Function` under the CSP', async () => {
    // The test setup built the domain's schemas already: build them again, as the page does, after the setting.
    vi.resetModules();
    await import('./zod-config');
    const { z } = await import('zod');
    expect(z.config().jitless).toBe(true);
    const evals: string[] = [];
    const OriginalFunction = globalThis.Function;
    globalThis.Function = new Proxy(OriginalFunction, {
      construct: (target, args: string[]) => {
        evals.push(args.join(','));
        return Reflect.construct(target, args) as object;
      },
    });
    try {
      const { siteSettingsSchema } = await import('@app/domain/settings');
      expect(() => siteSettingsSchema.parse({})).toThrow();
      z.object({ a: z.string() }).parse({ a: 'x' });
    } finally {
      globalThis.Function = OriginalFunction;
    }
    expect(evals).toEqual([]);
  });
});
