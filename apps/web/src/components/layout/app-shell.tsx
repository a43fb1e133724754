import { useState, type ReactNode } from 'react';
import { Menu, X } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { Header } from './header';

interface AppShellProps {
  homeTo: string;
  /**
   * The side navigation, given the function that closes the narrow layout's menu (call it on a
   * navigation); a visitor's shell has none.
   */
  nav?: ((closeMenu: () => void) => ReactNode) | undefined;
  headerActions?: ReactNode;
  /** the skip link of a signed-in page (components/layout/skip-link.tsx), first in the page; it targets MAIN_ID */
  skipLink?: ReactNode;
  /** a mark on the narrow layout's "Menu" button (the unread messages, so a phone sees them too) */
  menuBadge?: ReactNode;
  children: ReactNode;
}

export const MAIN_ID = 'main';

const NAV_ID = 'app-side-nav';

/** Header, side navigation and main landmark. Below 992 px (SPEC §9) the navigation hides behind "Menu". */
export function AppShell({ homeTo, nav, headerActions, skipLink, menuBadge, children }: AppShellProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const hasNav = nav !== undefined;
  const menuButton = hasNav ? (
    <button
      type="button"
      className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium lg:hidden"
      aria-expanded={menuOpen}
      aria-controls={NAV_ID}
      onClick={() => setMenuOpen((open) => !open)}
    >
      {menuOpen ? <Icon icon={X} className="size-4" /> : <Icon icon={Menu} className="size-4" />}
      Menu
      {menuBadge}
    </button>
  ) : undefined;

  return (
    <div className="flex min-h-dvh flex-col">
      {skipLink}
      <Header homeTo={homeTo} menuButton={menuButton} actions={headerActions} />
      <div className="mx-auto flex w-full max-w-7xl flex-1 flex-col lg:flex-row">
        {hasNav && (
          <div
            id={NAV_ID}
            className={`${menuOpen ? 'block' : 'hidden'} border-b border-slate-200 bg-white p-3 lg:block lg:w-60 lg:shrink-0 lg:border-r lg:border-b-0 lg:bg-transparent lg:py-6`}
          >
            {nav(() => setMenuOpen(false))}
          </div>
        )}
        <main id={MAIN_ID} tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 outline-none lg:px-8">
          {children}
        </main>
      </div>
    </div>
  );
}
