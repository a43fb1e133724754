import { useEffect, useMemo, type ReactNode } from 'react';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { Redirect, Route, Switch, useLocation, useParams } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { ClipboardList, History, KeyRound, LogOut, Tag, Users, Wallet, Calculator } from 'lucide';
import { AppShell, MAIN_ID } from '@/components/layout/app-shell';
import { SideNav, type NavItem } from '@/components/layout/side-nav';
import { SkipLink } from '@/components/layout/skip-link';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { PageHeading } from '@/components/ui/page-heading';
import { FullPageLoading } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useLogout } from '@/features/auth/api/logout';
import { isAdmin, isSupport, useStaffMe, type StaffMe } from '@/features/staff/api/get-staff-me';
import { PaymentAttention, RefundClaims, UnappliedPayments } from '@/features/staff/components/money-queues';
import { DisputesQueue } from '@/features/staff/components/disputes-queue';
import { OrdersQueue } from '@/features/staff/components/orders-queue';
import { OrderView } from '@/features/staff/components/order-view';
import { OrderChatPanel } from '@/features/staff/components/order-chat';
import { useSiteSettings } from '@/features/settings/api/get-site-settings';
import { errorMessage, onSessionEnd } from '@/lib/api-client';
import { setChatBase } from '@/lib/chat/base';
import { tokenStorage } from '@/lib/storage';
import type { FromState } from './require-customer';
import { clearSessionCache } from '../session';
import { AdminPage, TwoFactorPage } from './staff-admin';

function StaffLogout() {
  const queryClient = useQueryClient();
  const logout = useLogout(() => clearSessionCache(queryClient));
  return (
    <Button variant="secondary" title="Log out" busy={logout.isPending} onClick={() => logout.mutate()}>
      <Icon icon={LogOut} className="size-4" />
      <span className="max-sm:sr-only">Log out</span>
    </Button>
  );
}

function StaffShell({ me, children }: { me: StaffMe; children: ReactNode }) {
  const items: NavItem[] = [
    // The queue and the order pages; /staff/money is its own item.
    {
      to: paths.staff,
      label: 'Orders',
      icon: ClipboardList,
      isCurrent: (pathname) => pathname === paths.staff || pathname.startsWith(`${paths.staff}/orders/`),
    },
  ];
  if (isSupport(me)) items.push({ to: paths.staffMoney, label: 'Money', icon: Wallet });
  // ADR 0090: the admin section, and every staff member's two-factor sign-in.
  if (isAdmin(me)) {
    items.push(
      { to: paths.staffAdmin('prices'), label: 'Admin: prices', icon: Calculator },
      { to: paths.staffAdmin('discounts'), label: 'Admin: codes', icon: Tag },
      { to: paths.staffAdmin('staff'), label: 'Admin: staff', icon: Users },
      { to: paths.staffAdmin('audit'), label: 'Admin: audit log', icon: History },
    );
  }
  items.push({ to: paths.staffTwoFactor, label: 'Two-factor sign-in', icon: KeyRound });
  return (
    <AppShell
      homeTo={paths.staff}
      skipLink={<SkipLink targetId={MAIN_ID} />}
      nav={(closeMenu) => <SideNav items={items} onNavigate={closeMenu} />}
      headerActions={
        <div className="flex items-center gap-3">
          {/* Below 640 px the header has no room beside the brand: who is signed in is read out, not shown. */}
          <p className="text-right text-sm leading-tight whitespace-nowrap text-slate-700 max-sm:sr-only">
            <span className="block font-semibold text-slate-900">
              {me.firstName} {me.lastName}
            </span>
            {isAdmin(me) ? 'Admin' : isSupport(me) ? 'Support' : 'Writer'} #{me.id}
          </p>
          <NotificationBell side="staff" staffLink={(item) => (item.orderId === null ? null : `${paths.staff}/orders/${item.orderId}`)} />
          <StaffLogout />
        </div>
      }
    >
      {children}
    </AppShell>
  );
}

function StaffOrderPage({ me }: { me: StaffMe }) {
  const { id = '' } = useParams();
  if (!/^\d{1,10}$/.test(id)) return <Redirect to={paths.notFound} replace />;
  return (
    <OrderView
      key={id}
      orderId={Number(id)}
      support={isSupport(me)}
      chat={(order) => <OrderChatPanel orderId={order.id} role={me.role} customerFirstName={order.customerName.split(' ')[0] ?? ''} />}
    />
  );
}

/**
 * ADR 0059: the staff console, its own lazily loaded area. A visitor goes to /login and comes back; a
 * customer (whose token the staff API answers 404) gets the app's 404 page.
 */
export function Component() {
  const me = useStaffMe();
  const settings = useSiteSettings();
  const queryClient = useQueryClient();
  const [location, navigate] = useLocation();
  // CONTRACT "Serving": the chat server's base from the settings (the startup loaded them); `/chat` by default.
  // Set before the console's first chat call; the staff chat session (ADR 0076) lives as long as the console.
  const http = settings.data?.baseOrderMessengerURL;
  const ws = settings.data?.baseWebSocketGatewayURL;
  useMemo(() => setChatBase({ http, ws }), [http, ws]);
  const staffId = me.data?.id ?? null;
  useEffect(() => {
    if (staffId === null) return undefined;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import('@/lib/chat/session').then(({ startChatSession }) => {
      if (!cancelled) stop = startChatSession({ side: 'staff', queryClient, ownerId: staffId, http, ws });
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient, staffId, http, ws]);
  const signedIn = tokenStorage.hasAny();
  // The session ended under the console (the refresh failed): back to /login, keeping the page.
  useEffect(
    () => onSessionEnd(() => navigate(paths.login, { replace: true, state: { from: window.location.pathname } satisfies FromState })),
    [navigate],
  );

  if (!signedIn) {
    return <Redirect to={paths.login} replace state={{ from: location } satisfies FromState} />;
  }
  if (me.isPending) return <FullPageLoading />;
  if (me.isError) {
    return (
      <main className="mx-auto max-w-md p-6">
        <Alert tone="error" title="The staff console could not be loaded">
          {errorMessage(me.error)}
        </Alert>
      </main>
    );
  }
  if (me.data === null) return <Redirect to={paths.notFound} replace />;
  const staff = me.data;
  const support = isSupport(staff);
  return (
    <StaffShell me={staff}>
      <Switch>
        <Route path={paths.staff}>
          <div className="flex flex-col gap-4">
            <PageHeading>{support ? 'Orders' : 'My orders'}</PageHeading>
            <OrdersQueue support={support} />
          </div>
        </Route>
        <Route path="/staff/orders/:id">
          <StaffOrderPage me={staff} />
        </Route>
        <Route path={paths.staffMoney}>
          {support ? (
            <div className="flex flex-col gap-4">
              <PageHeading>Money</PageHeading>
              {/* ADR 0087: disputes and cancel requests, resolved with one outcome. */}
              <DisputesQueue />
              <PaymentAttention />
              <UnappliedPayments />
              <RefundClaims />
            </div>
          ) : (
            <Redirect to={paths.notFound} replace />
          )}
        </Route>
        <Route path={paths.staffTwoFactor}>
          <TwoFactorPage />
        </Route>
        <Route path="/staff/admin/:section">
          <AdminPage me={staff} />
        </Route>
        <Route>
          <Redirect to={paths.notFound} replace />
        </Route>
      </Switch>
    </StaffShell>
  );
}
