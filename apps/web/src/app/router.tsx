import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, type ComponentType } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { FullPageLoading } from '@/components/ui/spinner';
import { PageSkeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { announce } from '@/lib/announce';
import { useCurrentCustomer } from '@/features/customer/api/get-customer';
import { siteSettingsQueryOptions } from '@/features/settings/api/get-site-settings';
import { releaseChecksWhenQuiet } from '@/lib/query-client';
import { cancelHeadingFocus, focusPageHeading } from '@/lib/route-focus';
import { documentTitle, pageKey, pageName } from './route-titles';
import { RequireCustomer } from './routes/require-customer';
import { RootLayout } from './routes/root-layout';
import { ShellLayout } from './routes/shell-layout';

/** Mounts with the page's code: once the page has its data on screen, the deferred checks run (ADR 0028). */
function PageShown() {
  const queryClient = useQueryClient();
  useEffect(() => releaseChecksWhenQuiet(queryClient), [queryClient]);
  return null;
}

/**
 * A route module exports `Component`; it loads when the route is first shown, or before the first render
 * (`preload`, ADR 0057): a page whose module is already here draws in the first render, without the
 * loading state in between (which was the first paint, with the page's render a long task after it).
 */
const lazyPage = (load: () => Promise<{ Component: ComponentType }>, Loading: ComponentType = FullPageLoading) => {
  let Loaded: ComponentType | null = null;
  let loading: Promise<{ default: ComponentType }> | null = null;
  const preload = () =>
    (loading ??= load().then((m) => {
      Loaded = m.Component;
      return { default: m.Component };
    }));
  const Page = lazy(preload);
  function LazyPage() {
    // Decided once per mount, so the page is never swapped for another element type while mounted.
    const [Ready] = useState(() => Loaded);
    return (
      <Suspense fallback={<Loading />}>
        {Ready ? <Ready /> : <Page />}
        <PageShown />
      </Suspense>
    );
  }
  return Object.assign(LazyPage, { preload });
};

const OrderPage = lazyPage(() => import('./routes/order'));
const DashboardPage = lazyPage(() => import('./routes/dashboard'), PageSkeleton);
const TransactionsPage = lazyPage(() => import('./routes/transactions'), PageSkeleton);
const ProfilePage = lazyPage(() => import('./routes/profile'), PageSkeleton);
const LoyaltyPage = lazyPage(() => import('./routes/loyalty'), PageSkeleton);
const OrderInfoLookupPage = lazyPage(() => import('./routes/order-info-lookup'));
const OrderInfoPage = lazyPage(() => import('./routes/order-info'), PageSkeleton);
const LoginPage = lazyPage(() => import('./routes/login'));
const ResetPasswordPage = lazyPage(() => import('./routes/reset-password'));
const LogoutPage = lazyPage(() => import('./routes/logout'));
const NotFoundPage = lazyPage(() => import('./routes/not-found'));
// ADR 0059: the staff console is its own chunk; a customer's first visit never loads it.
const StaffPage = lazyPage(() => import('./routes/staff'));
const STAFF_PATHS = new RegExp(`^${paths.staff}(/.*)?$`);

/** The pages a first visit most often opens, by path: their code is loaded before the first render. */
const FIRST_PAGES: Record<string, { preload: () => Promise<unknown> }> = {
  [paths.order]: OrderPage,
  [paths.login]: LoginPage,
  [paths.resetPassword]: ResetPasswordPage,
};

/**
 * ADR 0100: a signed-in customer's daily pages, by path: their code is preloaded with the page too (one
 * chunk with the shell's), so the first render draws them instead of their skeleton and then them.
 */
type FirstData = (queryClient: QueryClient, location: { pathname: string; search: string }) => Promise<unknown>;
const SIGNED_IN_FIRST_PAGES: readonly [RegExp, { preload: () => Promise<unknown> }, FirstData][] = [
  [
    new RegExp(`^${paths.dashboard}/?$`),
    DashboardPage,
    (queryClient, { search }) =>
      import('@/features/orders/api/first-data').then((m) =>
        m.prefetchDashboard(queryClient, queryClient.getQueryData(siteSettingsQueryOptions().queryKey)?.siteCategories[0], search),
      ),
  ],
  [
    new RegExp(`^${paths.loyalty}/?$`),
    LoyaltyPage,
    (queryClient) => import('@/features/loyalty/api/loyalty').then((m) => m.prefetchLoyalty(queryClient)),
  ],
  [
    new RegExp(`^${paths.orderInfoLookup}/[^/]+(/[^/]+)?/?$`),
    OrderInfoPage,
    (queryClient, { pathname }) => import('@/features/orders/api/first-data').then((m) => m.prefetchOrderPage(queryClient, pathname)),
  ],
];

/**
 * ADR 0057: the page of `location` loaded (its module is preloaded with the page), or at once for others;
 * a signed-in page's only for a browser that holds a session (a visitor there is sent to /login), with the
 * data it shows first (ADR 0100) when given the query client.
 */
export const preloadFirstPage = (location: { pathname: string; search: string }, signedIn?: QueryClient): Promise<unknown> => {
  const first = FIRST_PAGES[location.pathname];
  if (first) return first.preload();
  const page = signedIn ? SIGNED_IN_FIRST_PAGES.find(([pattern]) => pattern.test(location.pathname)) : undefined;
  if (!page || !signedIn) return Promise.resolve();
  return Promise.all([page[1].preload(), page[2](signedIn, location)]);
};

/** The signed-in area's pages: the guard sends visitors to /login. */
const customerPage = (Page: ComponentType) =>
  function CustomerPage() {
    return (
      <RequireCustomer>
        <Page />
      </RequireCustomer>
    );
  };
const Dashboard = customerPage(DashboardPage);
const Transactions = customerPage(TransactionsPage);
const Profile = customerPage(ProfilePage);
const Loyalty = customerPage(LoyaltyPage);
const OrderInfoLookup = customerPage(OrderInfoLookupPage);
const OrderInfo = customerPage(OrderInfoPage);

/** ADR 0041: `/` opens the app: the wizard for a visitor, the dashboard for a signed-in customer. */
function Home() {
  const customer = useCurrentCustomer();
  return <Redirect to={customer ? paths.dashboard : paths.order} replace />;
}

/** Every path the shell (header, side navigation) frames; it stays mounted while moving between them. */
const SHELL_PATHS = new RegExp(
  `^(${[paths.order, paths.dashboard, paths.transactions, paths.profile, paths.loyalty, paths.orderInfoLookup].join('|')})(/[^/]+(/[^/]+)?)?/?$`,
);

/**
 * SPEC §2 "Screens and routes". Pages are lazy so that the first load is React, the router, the query
 * client and the shell (ADR 0020). The router is wouter (ADR 0028): the app needs paths, parameters,
 * the query string and redirects, which wouter does in about 2 kB gzip where React Router took 13.
 */
export function AppSwitch() {
  return (
    <Switch>
      <Route path={paths.home} component={Home} />
      <Route path={SHELL_PATHS}>
        <ShellLayout>
          <Switch>
            <Route path={paths.order} component={OrderPage} />
            <Route path={paths.dashboard} component={Dashboard} />
            <Route path={paths.transactions} component={Transactions} />
            <Route path={paths.profile} component={Profile} />
            <Route path={paths.loyalty} component={Loyalty} />
            <Route path={paths.orderInfoLookup} component={OrderInfoLookup} />
            <Route path={`${paths.orderInfoLookup}/:id/:tab?`} component={OrderInfo} />
            <Route>
              <Redirect to={paths.notFound} replace />
            </Route>
          </Switch>
        </ShellLayout>
      </Route>
      <Route path={paths.login} component={LoginPage} />
      <Route path={paths.resetPassword} component={ResetPasswordPage} />
      <Route path={paths.logout} component={LogoutPage} />
      <Route path={STAFF_PATHS} component={StaffPage} />
      <Route path={paths.notFound} component={NotFoundPage} />
      <Route>
        <Redirect to={paths.notFound} replace />
      </Route>
    </Switch>
  );
}

/** What code outside the router (the session-end handler, tests) uses to move and to read the location. */
interface HandleLocation {
  pathname: string;
  search: string;
}
export interface RouterHandle {
  navigate: (to: string) => void;
  state: { readonly location: HandleLocation };
  attach: (navigate: (to: string) => void, location: HandleLocation) => void;
}

export const createRouterHandle = (): RouterHandle => {
  let go: (to: string) => void = () => undefined;
  const state = { location: { pathname: '/', search: '' } };
  return {
    navigate: (to) => go(to),
    state,
    attach: (navigate, location) => {
      go = navigate;
      state.location = location;
    },
  };
};

/**
 * Every page has its title; moving to another page (not another tab of the order page) moves the
 * focus to its heading and says its name in the live region (ADR 0042). The first page keeps the
 * focus where the browser put it, so the skip link comes first.
 */
const useRouteAnnouncement = (pathname: string) => {
  const key = pageKey(pathname);
  const shown = useRef<string | null>(null);
  // Redirects before the visitor did anything (a guard sending to /login) are still the first page.
  const interacted = useRef(false);
  useEffect(() => {
    const note = () => {
      interacted.current = true;
    };
    window.addEventListener('keydown', note, true);
    window.addEventListener('pointerdown', note, true);
    return () => {
      window.removeEventListener('keydown', note, true);
      window.removeEventListener('pointerdown', note, true);
      cancelHeadingFocus();
    };
  }, []);
  useEffect(() => {
    document.title = documentTitle(key);
    const changed = shown.current !== null && shown.current !== key;
    shown.current = key;
    if (!changed || !interacted.current) return;
    focusPageHeading();
    announce(pageName(key));
  }, [key]);
};

/** The routes inside the startup, plus the handle's wiring and a scroll to the top on a new path. */
export function AppRoutes({ handle }: { handle: RouterHandle }) {
  const [pathname, navigate] = useLocation();
  const search = useSearch();
  useLayoutEffect(() => {
    handle.attach((to) => navigate(to, { replace: true }), { pathname, search: search === '' ? '' : `?${search}` });
  }, [handle, pathname, search, navigate]);
  useEffect(() => {
    window.scrollTo?.(0, 0);
  }, [pathname]);
  useRouteAnnouncement(pathname);
  return (
    <RootLayout>
      <AppSwitch />
    </RootLayout>
  );
}
