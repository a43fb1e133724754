import { useQueryClient } from '@tanstack/react-query';
import { ClipboardList, FilePlus2, Gift, LogOut, Receipt, Settings } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { SideNav } from '@/components/layout/side-nav';
export { SkipLink } from '@/components/layout/skip-link';
export { ChatStartup } from '../chat-startup';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useLogout } from '@/features/auth/api/logout';
import { TermsDialog } from '@/features/customer/components/terms-dialog';
import { useReferralInfo } from '@/features/loyalty/api/loyalty';
import { useOrderCount } from '@/features/orders/api/get-order-count';
import { useAllUnread } from '@/lib/chat/unread-queries';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { clearSessionCache } from '../session';

// Only a signed-in customer's shell shows these: a visitor on /order never loads them (ADR 0028).

/** SPEC §2 "Side navigation": New Order, All Orders (with the order count), Transactions, Settings, My Bonuses. */
export function CustomerNav({ onNavigate }: { onNavigate: () => void }) {
  const count = useOrderCount(true);
  // SPEC §2 "Startup": once authorised, the ready referral count is loaded; it shows beside My Bonuses.
  const referral = useReferralInfo();
  // ADR 0049: the unread messages of all orders, live (the startup socket's event 5 patches the cache).
  const unread = useAllUnread('customer').data?.total ?? 0;
  return (
    <SideNav
      onNavigate={onNavigate}
      items={[
        { to: paths.order, label: 'New Order', icon: FilePlus2 },
        {
          to: paths.dashboard,
          label: 'All Orders',
          icon: ClipboardList,
          badge: count.data?.total,
          // Issue 27: the pill says what it counts.
          badgeLabel: 'total',
          alert: { count: unread, label: unread === 1 ? 'unread message' : 'unread messages' },
        },
        { to: paths.transactions, label: 'Transactions', icon: Receipt },
        { to: paths.profile, label: 'Settings', icon: Settings },
        {
          to: paths.loyalty,
          label: 'My Bonuses',
          icon: Gift,
          badge: referral.data?.readyReferrals || undefined,
          badgeLabel: 'ready',
        },
      ]}
    />
  );
}

/** Below 992 px the navigation hides behind "Menu": the unread count shows on the button too (ADR 0049). */
export function MenuUnread() {
  const unread = useAllUnread('customer').data?.total ?? 0;
  if (unread <= 0) return null;
  return (
    <span className="rounded-full bg-red-700 px-1.5 text-xs font-semibold text-white">
      {unread}
      <span className="sr-only"> {unread === 1 ? 'unread message' : 'unread messages'}</span>
    </span>
  );
}

/** ADR 0088: the bell, then "Log out", in the header. */
export function HeaderActions() {
  return (
    <div className="flex items-center gap-2">
      <NotificationBell side="customer" />
      <LogoutButton />
    </div>
  );
}

/** UI contract "Shell": "Log out" in the header. */
export function LogoutButton() {
  const queryClient = useQueryClient();
  const logout = useLogout(() => clearSessionCache(queryClient));
  return (
    <Button variant="secondary" title="Log out" busy={logout.isPending} onClick={() => logout.mutate()}>
      <Icon icon={LogOut} className="size-4" />
      <span className="max-sm:sr-only">Log out</span>
    </Button>
  );
}

/** ADR 0085: asks a signed-in customer to accept the current Terms and Privacy Policy when they have not. */
export function TermsPrompt() {
  const queryClient = useQueryClient();
  const logout = useLogout(() => clearSessionCache(queryClient));
  return <TermsDialog onSignOut={() => logout.mutate()} signingOut={logout.isPending} />;
}
