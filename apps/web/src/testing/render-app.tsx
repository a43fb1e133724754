import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { AppProvider } from '@/app/provider';
import { AppRoutes, createRouterHandle, type RouterHandle } from '@/app/router';

/** The whole app at `url` (jsdom's own history, as the browser's), on a fresh cache, talking to MSW. */
export const renderApp = (url: string) => {
  window.history.replaceState(null, '', url);
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: 30_000 }, mutations: { retry: false } },
  });
  const router = createRouterHandle();
  const user = userEvent.setup();
  const view = render(
    <AppProvider queryClient={queryClient} navigate={(to) => router.navigate(to)}>
      <AppRoutes handle={router} />
    </AppProvider>,
  );
  return { ...view, router, queryClient, user };
};

/** The current location of a rendered app, as "/path?search". */
export const currentUrl = (router: RouterHandle): string => `${router.state.location.pathname}${router.state.location.search}`;
