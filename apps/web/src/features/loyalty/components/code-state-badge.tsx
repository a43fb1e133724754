import type { GeneratedDiscount } from '@app/domain/loyalty';

const STATE = {
  active: { label: 'Ready to use', className: 'bg-green-100 text-green-900 ring-green-300' },
  used: { label: 'Used', className: 'bg-slate-200 text-slate-900 ring-slate-400' },
  expired: { label: 'Expired', className: 'bg-red-100 text-red-900 ring-red-300' },
  // ADR 0072: a refund took back the points it was bought with before it was used.
  voided: { label: 'Voided', className: 'bg-slate-100 text-slate-900 ring-slate-400' },
} as const;

/** A generated code's state, always written out (colour is never the only signal). */
export function CodeStateBadge({ state }: { state: GeneratedDiscount['state'] }) {
  return (
    <span
      className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${STATE[state].className}`}
    >
      {STATE[state].label}
    </span>
  );
}
