import { startTransition } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { SERVER_DRAWN_ATTRIBUTE } from '@app/domain/routes';
import { currentCustomerQueryOptions, primeVisitor } from '@/features/customer/api/get-customer';
import { hasWizardDraft } from '@/features/order-wizard/lib/persisted-state';
import { primeSiteSettings } from '@/features/settings/api/get-site-settings';
import { keepServerSkeleton } from '@/components/ui/skeleton';
import { QUERY_PARAM } from '@/config/paths';
import { createQueryClient } from '@/lib/query-client';
import { syncSessionHint, tokenStorage } from '@/lib/storage';
import { AppTree } from './app-tree';
import { createRouterHandle, preloadFirstPage } from './router';

/** How long the first render waits for the first page's module at most (then it shows the loading state). */
const FIRST_PAGE_WAIT_MS = 3_000;

/**
 * ADR 0064: the server drew a visitor's page (no session, no wizard draft of this browser's own); the
 * browser hydrates it only when it would draw the same, and draws its own otherwise (a session the
 * server could not know of, a draft the wizard restores), which replaces the server's at once.
 */
const drawsWhatTheServerDrew = (container: HTMLElement): boolean =>
  container.hasAttribute(SERVER_DRAWN_ATTRIBUTE) && !tokenStorage.hasAny() && !hasWizardDraft();

/** A node React has taken over carries its fiber under this prefix (react-dom's own key). */
const REACT_NODE_KEY = '__reactFiber$';
const hasFiber = (element: Element): boolean => Object.keys(element).some((key) => key.startsWith(REACT_NODE_KEY));
/** A control, or its parent (hydrated in the same pass): some DOMs list a select's options as its own keys. */
const isTheApps = (control: Element): boolean => hasFiber(control) || (control.parentElement !== null && hasFiber(control.parentElement));
/** Longest the page waits for its last control to hydrate (then it is released anyway, as before). */
const HYDRATION_WAIT_MS = 5_000;

/**
 * The shell mounts before the page's own Suspense boundaries are hydrated (React hydrates each boundary
 * in a pass of its own, after its parent has committed): released then, a choice made at once went to a
 * server-drawn select the app did not know yet, and its next render put its own value back (the wizard's
 * lost subject). `inert` goes once every control in the container is the app's.
 */
const releaseWhenHydrated = (container: HTMLElement): void => {
  const started = performance.now();
  const check = () => {
    const pending = [...container.querySelectorAll('input, select, textarea, button')].some((element) => !isTheApps(element));
    if (!pending || performance.now() - started > HYDRATION_WAIT_MS) container.removeAttribute('inert');
    else setTimeout(check, 16);
  };
  check();
};

/** Boots the web app into `container`; resolves with its React root once the first render has started. */
export const mountApp = (container: HTMLElement): Promise<Root> => {
  syncSessionHint();
  const queryClient = createQueryClient();
  // The startup's answers (SPEC §2) the page already holds are in the cache before the first render (ADR 0057).
  primeSiteSettings(queryClient);
  keepServerSkeleton(container);
  primeVisitor(queryClient, window.location.search);
  const handle = createRouterHandle();
  // What the server drew stays out of reach (inert) until the app runs it: a click or a key on it
  // before then would do nothing, and text typed into it would be lost when the form takes it over.
  const onMounted = () => releaseWhenHydrated(container);
  // A transition: React renders (or hydrates) the first page in slices of a few milliseconds, giving the
  // main thread back between them, and commits it whole at the end; a plain render was one task of the
  // whole page (the longest of a first visit on a slow phone, ADR 0062). Later updates are urgent as usual.
  const render = (): Root => {
    const app = <AppTree queryClient={queryClient} handle={handle} onMounted={onMounted} />;
    let root: Root | undefined;
    startTransition(() => {
      if (drawsWhatTheServerDrew(container)) {
        root = hydrateRoot(container, app, {
          // A page that came out different after all (a clock between two minutes, a changed setting)
          // is drawn again by the app, whole; worth a note, not an error.
          onRecoverableError: (error) => console.warn('The page was drawn again in the browser:', error),
        });
      } else {
        root = createRoot(container);
        root.render(app);
      }
    });
    return root as Root;
  };
  // The first page's module is already on its way (modulepreload): the first render waits for it, so the
  // page is the first paint instead of a loading state followed by a long render (ADR 0057). A module
  // that fails to load renders as before (the route's own loading and error handling).
  // ADR 0100: a signed-in customer's page waits for the customer too, which the page asked for itself before
  // this code arrived (SPEC §2's startup then finds it known): one render of the page, not of the skeleton,
  // then the shell, then the page.
  // Not with a sign-in link in the address: the startup signs in with it first (SPEC §2).
  const signedIn = tokenStorage.hasAny() && !new URLSearchParams(window.location.search).has(QUERY_PARAM.magicLink);
  const customer = signedIn ? queryClient.prefetchQuery(currentCustomerQueryOptions()) : undefined;
  const atMost = new Promise((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS));
  const page = preloadFirstPage(window.location, signedIn ? queryClient : undefined);
  return Promise.race([Promise.all([page, customer]), atMost]).then(render, render);
};
