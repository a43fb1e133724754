import { afterEach, describe, expect, it, vi } from 'vitest';
import { LATER_CODE_ELEMENT_ID, SERVER_DRAWN_ATTRIBUTE } from '@app/domain/routes';
import { prefetchLaterCode, resetPrefetchLaterCode } from './prefetch-later-code';

afterEach(() => {
  document.getElementById(LATER_CODE_ELEMENT_ID)?.remove();
  document.getElementById('drawn-root')?.remove();
  for (const link of document.head.querySelectorAll('link[rel="prefetch"]')) link.remove();
  resetPrefetchLaterCode();
});

describe('the code a page may load later (ADR 0040)', () => {
  it('is prefetched, not run, once, from the list the page carries; only the build’s own files', async () => {
    const list = document.createElement('script');
    list.type = 'application/json';
    list.id = LATER_CODE_ELEMENT_ID;
    list.textContent = JSON.stringify(['/assets/step-checkout-1.js', 'https://elsewhere.example/x.js', '/assets/dialog-2.js']);
    document.body.append(list);

    prefetchLaterCode();
    prefetchLaterCode();
    const links = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="prefetch"]')];
    // The first at once, the rest when the browser is idle (ADR 0065).
    expect(links()).toHaveLength(1);
    await vi.waitFor(() => expect(links()).toHaveLength(2));
    expect(links().map((l) => new URL(l.href).pathname)).toEqual(['/assets/step-checkout-1.js', '/assets/dialog-2.js']);
    expect(document.head.querySelectorAll('script[src*="step-checkout"]')).toHaveLength(0);
  });

  it('waits for the visitor’s first input on a page the server drew (ADR 0100)', async () => {
    const list = document.createElement('script');
    list.type = 'application/json';
    list.id = LATER_CODE_ELEMENT_ID;
    list.textContent = JSON.stringify(['/assets/step-checkout-1.js']);
    const root = document.createElement('div');
    root.id = 'drawn-root';
    root.setAttribute(SERVER_DRAWN_ATTRIBUTE, '');
    document.body.append(list, root);

    prefetchLaterCode();
    const links = () => document.head.querySelectorAll('link[rel="prefetch"]');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(links()).toHaveLength(0);
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab' }));
    await vi.waitFor(() => expect(links()).toHaveLength(1));
  });
});
