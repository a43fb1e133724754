import { describe, expect, it, vi } from 'vitest';
import { applyThemeColor } from './use-theme-color';

// The server draws pages with the browser's code (ADR 0064), and the startup primes the site settings there
// too (`primeSiteSettings`): with no document to read, a site colour of its own made the server's draw fail
// ("getComputedStyle is not defined"), and the browser drew the page instead.
describe('applyThemeColor where the server draws the page', () => {
  it('leaves the theme to the page the server sends, and does not throw', () => {
    vi.stubGlobal('document', undefined);
    vi.stubGlobal('getComputedStyle', undefined);
    try {
      expect(() => applyThemeColor('#b91c1c')).not.toThrow();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
