import type { ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ClipboardList, FilePlus2, Gift, LogOut, Receipt, Settings } from 'lucide-react';
import { AppShell } from '@/components/layout/app-shell';
import type { NavItem } from '@/components/layout/side-nav';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useLogout } from '@/features/auth/api/logout';
import { useCurrentCustomer } from '@/features/customer/api/get-customer';
import { useOrderCount } from '@/features/orders/api/get-order-count';
import { clearSessionCache } from '../session';

/** UI contract "Shell": a signed-in customer gets the side navigation and "Log out"; a visitor only the header. */
export function ShellLayout({ children }: { children: ReactNode }) {
  const customer = useCurrentCustomer();
  const queryClient = useQueryClient();
  const count = useOrderCount(customer !== null);
  const logout = useLogout(() => clearSessionCache(queryClient));

  const navItems: NavItem[] | undefined =
    customer === null
      ? undefined
      : [
          { to: paths.order, label: 'New Order', icon: FilePlus2 },
          { to: paths.dashboard, label: 'All Orders', icon: ClipboardList, badge: count.data?.total },
          { to: paths.transactions, label: 'Transactions', icon: Receipt },
          { to: paths.profile, label: 'Settings', icon: Settings },
          { to: paths.loyalty, label: 'My Bonuses', icon: Gift },
        ];

  return (
    <AppShell
      homeTo={customer === null ? paths.order : paths.dashboard}
      navItems={navItems}
      headerActions={
        customer !== null && (
          <Button variant="secondary" title="Log out" busy={logout.isPending} onClick={() => logout.mutate()}>
            <LogOut aria-hidden="true" className="size-4" />
            <span className="max-sm:sr-only">Log out</span>
          </Button>
        )
      }
    >
      {children}
    </AppShell>
  );
}
