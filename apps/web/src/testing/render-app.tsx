import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { AppProvider } from '@/app/provider';
import { AppRoutes, createRouterHandle, type RouterHandle } from '@/app/router';

/** The whole app at `url`, on a memory router and a fresh cache, talking to MSW. */
export const renderApp = (url: string) => {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: 30_000 }, mutations: { retry: false } },
  });
  const router = createRouterHandle();
  const user = userEvent.setup();
  const view = render(
    <MemoryRouter initialEntries={[url]}>
      <AppProvider queryClient={queryClient} navigate={(to) => router.navigate(to)}>
        <AppRoutes handle={router} />
      </AppProvider>
    </MemoryRouter>,
  );
  return { ...view, router, queryClient, user };
};

/** The current location of a rendered app, as "/path?search". */
export const currentUrl = (router: RouterHandle): string => `${router.state.location.pathname}${router.state.location.search}`;
