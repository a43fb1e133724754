import type { Root } from 'react-dom/client';
import { waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { INLINE_ANSWERS_ELEMENT_ID, SERVER_DRAWN_ATTRIBUTE } from '@app/domain/routes';
import { render as serverRender } from '@/entry-server';
import { WIZARD_STORAGE_KEY } from '@/features/order-wizard/lib/persisted-state';
import { deferredCheckCount } from '@/lib/api-client';
import { resetInlineAnswers } from '@/lib/inline-answers';
import { settingsFixture, signIn } from '@/testing/fixtures';
import { mountApp } from './app';

// ADR 0064: what the server draws for a visitor is what the browser draws, so the browser hydrates it
// (the same DOM nodes stay) without React drawing it again; a browser that would draw something else
// (a session, a wizard draft) draws its own in place of it.

const category = settingsFixture.siteCategories[0];
/** The answers the server puts in a page (apps/server/src/modules/catalogue createFirstAnswers), here from the test API. */
const ANSWER_PATHS: Record<string, string[]> = {
  '/login': ['/api/en/sites/settings'],
  '/order': [
    '/api/en/sites/settings',
    ...['work_types', 'assignments', 'subjects', 'paper_formats', 'calcs'].map(
      (list) => `/api/en/sites/categories/${category}/orders/${list}`,
    ),
    '/api/en/orders/academic_levels',
    `/api/en/sites/${settingsFixture.idSite}/orders/urgencies`,
  ],
};

/** The page as the server sends it: its answers, and its container drawn and inert. */
const serveDrawn = async (pathname: string): Promise<HTMLElement> => {
  const answers: Record<string, unknown> = {};
  for (const path of ANSWER_PATHS[pathname] ?? []) answers[path] = await (await fetch(path)).json();
  const html = await serverRender(pathname, '', answers);
  resetInlineAnswers();
  window.history.replaceState(null, '', pathname);
  document.body.innerHTML = `<script type="application/json" id="${INLINE_ANSWERS_ELEMENT_ID}">${JSON.stringify(answers)}</script><div id="root" ${SERVER_DRAWN_ATTRIBUTE} inert>${html}</div>`;
  return document.getElementById('root') as HTMLElement;
};

const warnings = () => vi.spyOn(console, 'warn');

const mounted: Root[] = [];
afterEach(() => {
  for (const root of mounted.splice(0)) root.unmount();
  document.body.innerHTML = '';
  resetInlineAnswers();
  vi.restoreAllMocks();
});

describe('the first page the server drew (ADR 0064)', () => {
  it.each(['/order', '/login'])('%s is hydrated: the same nodes, made interactive, nothing drawn again', async (pathname) => {
    const warn = warnings();
    const root = await serveDrawn(pathname);
    const heading = root.querySelector('h1');
    expect(heading).not.toBeNull();
    mounted.push(await mountApp(root));
    await waitFor(() => expect(root.hasAttribute('inert')).toBe(false));
    expect(root.querySelector('h1')).toBe(heading);
    expect(warn).not.toHaveBeenCalled();
  });

  it("stays inert until every control on the page is the app's: a choice made at once is kept", async () => {
    const root = await serveDrawn('/order');
    const controls = () => [...root.querySelectorAll('input, select, textarea, button')];
    const hasFiber = (node: Element | null) => node !== null && Object.keys(node).some((key) => key.startsWith('__reactFiber$'));
    // Or its parent, hydrated in the same pass (happy-dom lists a select's options as its keys).
    const isTheApps = (element: Element) => hasFiber(element) || hasFiber(element.parentElement);
    mounted.push(await mountApp(root));
    await waitFor(() => expect(root.hasAttribute('inert')).toBe(false));
    // The page's own boundaries hydrate after the shell: released before them, a choice went to a select
    // the app did not know yet and the next render put its own value back (the wizard's lost subject).
    expect(controls().filter((element) => !isTheApps(element))).toEqual([]);
  });

  it('leaves no check queued on the server: its answers are its own, and nothing would release them', async () => {
    const before = deferredCheckCount();
    for (let i = 0; i < 3; i += 1) await serveDrawn('/order');
    expect(deferredCheckCount()).toBe(before);
  });

  it('is drawn again by the browser that holds a session, which the server could not know of', async () => {
    signIn();
    const root = await serveDrawn('/order');
    const heading = root.querySelector('h1');
    mounted.push(await mountApp(root));
    await waitFor(() => expect(root.querySelector('h1')).not.toBeNull());
    expect(root.querySelector('h1')).not.toBe(heading);
    expect(root.hasAttribute('inert')).toBe(false);
    // …and the server will not draw a visitor's page for this browser again.
    expect(document.cookie).toContain('signed_in=1');
  });

  it('is drawn again with the wizard draft this browser kept', async () => {
    window.localStorage.setItem(WIZARD_STORAGE_KEY, JSON.stringify({ checkout: { email: 'kept@example.com' } }));
    const warn = warnings();
    const root = await serveDrawn('/order');
    const heading = root.querySelector('h1');
    mounted.push(await mountApp(root));
    await waitFor(() => expect(root.hasAttribute('inert')).toBe(false));
    expect(root.querySelector('h1')).not.toBe(heading);
    expect(warn).not.toHaveBeenCalled();
  });
});
