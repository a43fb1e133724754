import { lazy, Suspense, useEffect, useLayoutEffect, type ComponentType } from 'react';
import { Navigate, useLocation, useNavigate, useRoutes, type RouteObject } from 'react-router';
import { FullPageLoading } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { RequireCustomer } from './routes/require-customer';
import { RootLayout } from './routes/root-layout';
import { ShellLayout } from './routes/shell-layout';

/** A route module exports `Component`; it loads when the route is first shown. */
const page = (load: () => Promise<{ Component: ComponentType }>) => {
  const Page = lazy(() => load().then((m) => ({ default: m.Component })));
  return (
    <Suspense fallback={<FullPageLoading />}>
      <Page />
    </Suspense>
  );
};

/**
 * SPEC §2 "Screens and routes". Pages are lazy so that the first load is React, the router, the query
 * client and the shell (ADR 0020). React Router runs in its declarative mode: the data router's
 * loaders and actions are unused here and cost about 18 kB gzip on every first paint (ADR 0025).
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: paths.home, element: <Navigate to={paths.dashboard} replace /> },
      {
        element: <ShellLayout />,
        children: [
          { path: paths.order, element: page(() => import('./routes/order')) },
          {
            element: <RequireCustomer />,
            children: [
              { path: paths.dashboard, element: page(() => import('./routes/dashboard')) },
              { path: paths.transactions, element: page(() => import('./routes/transactions')) },
              { path: paths.profile, element: page(() => import('./routes/profile')) },
              { path: paths.loyalty, element: page(() => import('./routes/loyalty')) },
              { path: paths.orderInfoLookup, element: page(() => import('./routes/order-info-lookup')) },
              { path: `${paths.orderInfoLookup}/:id/:tab?`, element: page(() => import('./routes/order-info')) },
            ],
          },
        ],
      },
      { path: paths.login, element: page(() => import('./routes/login')) },
      { path: paths.resetPassword, element: page(() => import('./routes/reset-password')) },
      { path: paths.logout, element: page(() => import('./routes/logout')) },
      { path: paths.notFound, element: page(() => import('./routes/not-found')) },
      { path: '*', element: <Navigate to={paths.notFound} replace /> },
    ],
  },
];

/** What code outside the router (the session-end handler, tests) uses to move and to read the location. */
interface HandleLocation {
  pathname: string;
  search: string;
  hash: string;
}
export interface RouterHandle {
  navigate: (to: string) => void;
  state: { readonly location: HandleLocation };
  attach: (navigate: (to: string) => void, location: HandleLocation) => void;
}

export const createRouterHandle = (): RouterHandle => {
  let go: (to: string) => void = () => undefined;
  const state = { location: { pathname: '/', search: '', hash: '' } };
  return {
    navigate: (to) => go(to),
    state,
    attach: (navigate, location) => {
      go = navigate;
      state.location = location;
    },
  };
};

/** The routes, plus the handle's wiring and the scroll reset a data router's ScrollRestoration gave. */
export function AppRoutes({ handle }: { handle: RouterHandle }) {
  const location = useLocation();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    handle.attach((to) => void navigate(to, { replace: true }), {
      pathname: location.pathname,
      search: location.search,
      hash: location.hash,
    });
  }, [handle, location, navigate]);
  const { pathname } = location;
  useEffect(() => {
    window.scrollTo?.(0, 0);
  }, [pathname]);
  return useRoutes(routes);
}
