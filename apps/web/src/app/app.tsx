import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { siteSettingsQueryOptions } from '@/features/settings/api/get-site-settings';
import { createQueryClient } from '@/lib/query-client';
import { AppProvider } from './provider';
import { AppRoutes, createRouterHandle } from './router';

/** Boots the web app into `container`. */
export const mountApp = (container: HTMLElement): void => {
  const queryClient = createQueryClient();
  // The first startup call (SPEC §2) leaves while the first route module is still loading.
  void queryClient.prefetchQuery(siteSettingsQueryOptions());
  const handle = createRouterHandle();
  createRoot(container).render(
    <StrictMode>
      <AppProvider queryClient={queryClient} navigate={(to) => handle.navigate(to)}>
        <AppRoutes handle={handle} />
      </AppProvider>
    </StrictMode>,
  );
};
