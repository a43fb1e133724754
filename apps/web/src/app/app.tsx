import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { primeVisitor } from '@/features/customer/api/get-customer';
import { primeSiteSettings } from '@/features/settings/api/get-site-settings';
import { createQueryClient } from '@/lib/query-client';
import { AppProvider } from './provider';
import { AppRoutes, createRouterHandle, preloadFirstPage } from './router';

/** How long the first render waits for the first page's module at most (then it shows the loading state). */
const FIRST_PAGE_WAIT_MS = 3_000;

/** Boots the web app into `container`. */
export const mountApp = (container: HTMLElement): void => {
  const queryClient = createQueryClient();
  // The startup's answers (SPEC §2) the page already holds are in the cache before the first render (ADR 0057).
  primeSiteSettings(queryClient);
  primeVisitor(queryClient, window.location.search);
  const handle = createRouterHandle();
  // A transition: React renders the first page in slices of a few milliseconds, giving the main thread
  // back between them, and commits it whole at the end; a plain render was one task of the whole page
  // (the longest of a first visit on a slow phone, ADR 0062). Later updates are urgent as usual.
  const render = () => {
    const root = createRoot(container);
    startTransition(() => {
      root.render(
        <StrictMode>
          <AppProvider queryClient={queryClient} navigate={(to) => handle.navigate(to)}>
            <AppRoutes handle={handle} />
          </AppProvider>
        </StrictMode>,
      );
    });
  };
  // The first page's module is already on its way (modulepreload): the first render waits for it, so the
  // page is the first paint instead of a loading state followed by a long render (ADR 0057). A module
  // that fails to load renders as before (the route's own loading and error handling).
  const atMost = new Promise((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS));
  void Promise.race([preloadFirstPage(window.location.pathname), atMost]).then(render, render);
};
