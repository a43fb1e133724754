import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'wouter';
import { AppShell, MAIN_ID } from '@/components/layout/app-shell';
import { paths } from '@/config/paths';
import { useCurrentCustomer } from '@/features/customer/api/get-customer';

// The signed-in customer's navigation loads with the first signed-in page; /order's visitors skip it.
const loadCustomerNav = () => import('./customer-nav');
const CustomerNav = lazy(() => loadCustomerNav().then((m) => ({ default: m.CustomerNav })));
const HeaderActions = lazy(() => loadCustomerNav().then((m) => ({ default: m.HeaderActions })));
const SkipLink = lazy(() => loadCustomerNav().then((m) => ({ default: m.SkipLink })));
// SPEC §2: the signed-in customer's startup opens the chat socket (its code comes after the first paint).
const MenuUnread = lazy(() => loadCustomerNav().then((m) => ({ default: m.MenuUnread })));
const ChatStartup = lazy(() => loadCustomerNav().then((m) => ({ default: m.ChatStartup })));
// ADR 0085: the Terms and Privacy Policy dialog, when the current versions are not accepted yet.
const TermsPrompt = lazy(() => loadCustomerNav().then((m) => ({ default: m.TermsPrompt })));

/** UI contract "Shell": a signed-in customer gets the side navigation and "Log out"; a visitor only the header. */
export function ShellLayout({ children }: { children: ReactNode }) {
  const customer = useCurrentCustomer();
  const signedIn = customer !== null;
  return (
    <AppShell
      homeTo={signedIn ? paths.dashboard : paths.order}
      skipLink={
        signedIn && (
          <Suspense fallback={null}>
            <SkipLink targetId={MAIN_ID} />
          </Suspense>
        )
      }
      nav={
        signedIn
          ? (closeMenu) => (
              <Suspense fallback={null}>
                <CustomerNav onNavigate={closeMenu} />
              </Suspense>
            )
          : undefined
      }
      menuBadge={
        signedIn && (
          <Suspense fallback={null}>
            <MenuUnread />
          </Suspense>
        )
      }
      headerActions={
        signedIn ? (
          <Suspense fallback={null}>
            <HeaderActions />
          </Suspense>
        ) : (
          // Issue 27: a returning customer finds the way in from every visitor page.
          <Link to={paths.login} className="rounded-md px-3 py-1.5 text-sm font-medium text-primary-text hover:bg-slate-100">
            Sign in
          </Link>
        )
      }
    >
      {signedIn && (
        <Suspense fallback={null}>
          <ChatStartup />
          <TermsPrompt />
        </Suspense>
      )}
      {children}
    </AppShell>
  );
}
