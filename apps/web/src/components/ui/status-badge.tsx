import type { OrderStatusStyle } from '@app/domain/dashboard/rules';

/**
 * SPEC §4 "card styles": the colours of each status style. Text is 900 on 100 (about 8:1 or better,
 * WCAG AA with room); the accent is the card's left edge. Every style differs in hue, and the name is
 * always written out, so colour is never the only signal (WCAG 1.4.1).
 */
export const STATUS_STYLE_CLASS: Record<OrderStatusStyle, { badge: string; accent: string }> = {
  unpaid: { badge: 'bg-amber-100 text-amber-900 ring-amber-300', accent: 'border-l-amber-500' },
  paid: { badge: 'bg-sky-100 text-sky-900 ring-sky-300', accent: 'border-l-sky-500' },
  inProgress: { badge: 'bg-indigo-100 text-indigo-900 ring-indigo-300', accent: 'border-l-indigo-500' },
  completed: { badge: 'bg-green-100 text-green-900 ring-green-300', accent: 'border-l-green-600' },
  refunded: { badge: 'bg-fuchsia-100 text-fuchsia-900 ring-fuchsia-300', accent: 'border-l-fuchsia-500' },
  canceled: { badge: 'bg-red-100 text-red-900 ring-red-300', accent: 'border-l-red-600' },
  hold: { badge: 'bg-slate-200 text-slate-900 ring-slate-400', accent: 'border-l-slate-500' },
  modified: { badge: 'bg-orange-100 text-orange-900 ring-orange-300', accent: 'border-l-orange-500' },
  offered: { badge: 'bg-teal-100 text-teal-900 ring-teal-300', accent: 'border-l-teal-600' },
};

export function StatusBadge({ tone, children }: { tone: OrderStatusStyle; children: string }) {
  return (
    <span
      data-status-style={tone}
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${STATUS_STYLE_CLASS[tone].badge}`}
    >
      {children}
    </span>
  );
}
