import type { ReactNode } from 'react';
import type { IconNode } from 'lucide';
import { Icon } from './icon';

interface EmptyStateProps {
  icon: IconNode;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}

/** What a page shows while its feature has nothing to list yet; it never invents data. */
export function EmptyState({ icon, title, children, actions }: EmptyStateProps) {
  return (
    <section className="flex flex-col items-center gap-3 rounded-lg border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <Icon icon={icon} className="size-10 text-slate-500" />
      <h2 className="text-lg font-semibold">{title}</h2>
      {children && <div className="max-w-prose text-slate-700">{children}</div>}
      {actions && <div className="flex flex-wrap justify-center gap-3">{actions}</div>}
    </section>
  );
}
