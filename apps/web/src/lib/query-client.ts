import { QueryClient } from '@tanstack/react-query';
import { ApiError, releaseDeferredChecks } from './api-client';
import { whenIdle } from './idle';

const MAX_RETRIES = 2;

// A 4xx will answer the same again: only network failures and 5xx are worth a retry.
const shouldRetry = (failureCount: number, error: unknown): boolean =>
  failureCount < MAX_RETRIES && !(error instanceof ApiError && error.status >= 400 && error.status < 500);

/** TanStack Query is the web app's only cache of server data (DESIGN rule 8). */
export const createQueryClient = (): QueryClient =>
  new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: shouldRetry, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });

/**
 * The response checks deferred past the first paint (ADR 0028) run once the page that just mounted has
 * fetched what it shows and the browser is idle after drawing it, or after 5 s whatever happens; so does
 * the prefetch of the code the page may load later (ADR 0040).
 * Returns the cleanup.
 */
export const releaseChecksWhenQuiet = (queryClient: QueryClient): (() => void) => {
  let done = false;
  const release = () => {
    if (done) return;
    done = true;
    cleanup();
    whenIdle(
      () => {
        releaseDeferredChecks();
        // Its code comes when it runs, after the paint: the entry chunk goes without it (ADR 0062).
        void import('./prefetch-later-code').then((m) => m.prefetchLaterCode());
      },
      { timeout: 1_000, fallbackMs: 100 },
    );
  };
  const unsubscribe = queryClient.getQueryCache().subscribe(() => {
    if (queryClient.isFetching() === 0) release();
  });
  const fallback = setTimeout(release, 5_000);
  const cleanup = () => {
    unsubscribe();
    clearTimeout(fallback);
  };
  if (queryClient.isFetching() === 0) release();
  return cleanup;
};
