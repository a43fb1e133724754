import { Link, useLocation } from 'wouter';
import type { IconNode } from 'lucide';
import { Icon } from '@/components/ui/icon';

export interface NavItem {
  to: string;
  label: string;
  icon: IconNode;
  /** A count shown beside the label (the order count of "All Orders"). */
  badge?: number | undefined;
  /** Issue 27: the word that says what the count counts, shown in the pill ("12 total", "2 ready"). */
  badgeLabel?: string | undefined;
  /** A count that asks for attention (unread messages), with what it counts for screen readers. */
  alert?: { count: number; label: string } | undefined;
  /** When the item is the current page; by default its path and everything under it. */
  isCurrent?: (pathname: string) => boolean;
}

interface SideNavProps {
  items: readonly NavItem[];
  onNavigate?: () => void;
}

/** SPEC §2 "Side navigation": one landmark labelled "Main" (UI contract). */
export function SideNav({ items, onNavigate }: SideNavProps) {
  const [pathname] = useLocation();
  return (
    <nav aria-label="Main">
      <ul className="flex flex-col gap-1">
        {items.map(({ to, label, icon, badge, badgeLabel, alert, isCurrent }) => {
          const isActive = isCurrent ? isCurrent(pathname) : pathname === to || pathname.startsWith(`${to}/`);
          return (
            <li key={to}>
              <Link
                to={to}
                onClick={onNavigate}
                aria-current={isActive ? 'page' : undefined}
                className={`flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium no-underline ${
                  isActive ? 'bg-primary text-on-primary' : 'text-slate-800 hover:bg-slate-200/70'
                }`}
              >
                <Icon icon={icon} className="size-5 shrink-0" />
                <span className="flex-1">{label}</span>
                {alert !== undefined && alert.count > 0 && (
                  <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white" title={alert.label}>
                    {alert.count}
                    <span className="sr-only"> {alert.label}</span>
                  </span>
                )}
                {badge !== undefined && (
                  <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-slate-900">
                    {badge}
                    {badgeLabel !== undefined && <span className="font-normal"> {badgeLabel}</span>}
                  </span>
                )}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
