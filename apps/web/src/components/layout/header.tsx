import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { PenLine } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { SITE_NAME } from '@/config/site';

interface HeaderProps {
  homeTo: string;
  /** The "Menu" button of the narrow layout, when there is a navigation to open. */
  menuButton?: ReactNode;
  actions?: ReactNode;
}

export function Header({ homeTo, menuButton, actions }: HeaderProps) {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
      <div className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-3 sm:gap-3 sm:px-4">
        {menuButton}
        <Link
          to={homeTo}
          className="flex min-w-0 items-center gap-2 text-base font-semibold whitespace-nowrap text-slate-900 no-underline sm:text-lg"
        >
          <Icon icon={PenLine} className="size-5 text-primary-text" />
          {SITE_NAME}
        </Link>
        <div className="ml-auto flex items-center gap-2">{actions}</div>
      </div>
    </header>
  );
}
