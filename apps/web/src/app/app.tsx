import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { primeVisitor } from '@/features/customer/api/get-customer';
import { primeSiteSettings } from '@/features/settings/api/get-site-settings';
import { createQueryClient } from '@/lib/query-client';
import { AppProvider } from './provider';
import { AppRoutes, createRouterHandle } from './router';

/** Boots the web app into `container`. */
export const mountApp = (container: HTMLElement): void => {
  const queryClient = createQueryClient();
  // The startup's answers (SPEC §2) the page already holds are in the cache before the first render (ADR 0057).
  primeSiteSettings(queryClient);
  primeVisitor(queryClient, window.location.search);
  const handle = createRouterHandle();
  createRoot(container).render(
    <StrictMode>
      <AppProvider queryClient={queryClient} navigate={(to) => handle.navigate(to)}>
        <AppRoutes handle={handle} />
      </AppProvider>
    </StrictMode>,
  );
};
