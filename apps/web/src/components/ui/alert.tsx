import type { ReactNode } from 'react';
import { CircleAlert, CircleCheck, Info, TriangleAlert } from 'lucide';
import { Icon } from '@/components/ui/icon';

type Tone = 'error' | 'warning' | 'success' | 'info';

const TONE = {
  error: { className: 'border-red-300 bg-red-50 text-red-900', icon: CircleAlert, role: 'alert' },
  warning: { className: 'border-amber-300 bg-amber-50 text-amber-950', icon: TriangleAlert, role: 'alert' },
  success: { className: 'border-green-300 bg-green-50 text-green-900', icon: CircleCheck, role: 'status' },
  info: { className: 'border-slate-300 bg-white text-slate-900', icon: Info, role: undefined },
} as const;

interface AlertProps {
  tone?: Tone;
  title?: string;
  children?: ReactNode;
  className?: string;
}

/** A message in the page: errors are announced at once (role="alert"), successes politely. */
export function Alert({ tone = 'info', title, children, className = '' }: AlertProps) {
  const { className: toneClass, icon, role } = TONE[tone];
  return (
    <div role={role} className={`flex gap-3 rounded-md border p-3 text-sm ${toneClass} ${className}`}>
      <Icon icon={icon} className="mt-0.5 size-4 shrink-0" />
      <div className="flex flex-col gap-1">
        {title && <p className="font-semibold">{title}</p>}
        {children && <div>{children}</div>}
      </div>
    </div>
  );
}
