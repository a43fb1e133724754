import { useEffect, useId, useState, type FormEvent } from 'react';
import { Search, X } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { DASHBOARD_STATUS_FILTER, ORDER_STATUS_NAME } from '@app/domain/order/rules';
import type { DashboardFilters } from '@app/domain/dashboard/rules';
import { Button } from '@/components/ui/button';
import { CheckboxField } from '@/components/ui/field';
import { inputClass } from '@/components/ui/input';

/** Typing pauses this long before the list is asked again. */
export const SEARCH_DEBOUNCE_MS = 400;

type FilterChange = Partial<Omit<DashboardFilters, 'page'>>;

interface OrderFiltersProps {
  filters: DashboardFilters;
  onChange: (change: FilterChange, options?: { replace?: boolean }) => void;
  onClear: () => void;
  /** inside the phone's Filters sheet (issue 27): no card of its own */
  bare?: boolean;
}

const labelClass = 'text-sm font-medium text-slate-800';

/**
 * SPEC §2 "Filters: by status, by date range, by search text, and a hidden-orders toggle". The date
 * range is two native date fields (ADR 0022): keyboard, screen reader and locale come with them.
 */
export function OrderFilters({ filters, onChange, onClear, bare = false }: OrderFiltersProps) {
  const id = useId();
  const [text, setText] = useState(filters.q);
  // The address bar can change under the field (back, a shared link): follow it.
  const [shownQ, setShownQ] = useState(filters.q);
  if (filters.q !== shownQ) {
    setShownQ(filters.q);
    setText(filters.q);
  }

  useEffect(() => {
    const wanted = text.trim();
    if (wanted === filters.q) return undefined;
    // Each keystroke would be a history entry otherwise: the search replaces it.
    const timer = window.setTimeout(() => onChange({ q: wanted }, { replace: true }), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [text, filters.q, onChange]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== filters.q) onChange({ q: text.trim() }, { replace: true });
  };

  const active = filters.status !== null || filters.q !== '' || filters.from !== '' || filters.to !== '' || filters.hidden;

  return (
    <form
      role="search"
      aria-label="Filter orders"
      onSubmit={submit}
      className={`flex flex-col gap-4 ${bare ? '' : 'rounded-lg border border-slate-200 bg-white p-4'}`}
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(12rem,2fr)_minmax(10rem,1fr)_auto]">
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-q`} className={labelClass}>
            Search
          </label>
          <div className="relative">
            <Icon icon={Search} className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-500" />
            <input
              id={`${id}-q`}
              type="search"
              className={`${inputClass} pl-9`}
              placeholder="Title or order number"
              value={text}
              onChange={(event) => setText(event.target.value)}
            />
          </div>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-status`} className={labelClass}>
            Status
          </label>
          <select
            id={`${id}-status`}
            className={`${inputClass} h-[2.625rem]`}
            value={filters.status ?? ''}
            onChange={(event) => onChange({ status: event.target.value === '' ? null : Number(event.target.value) })}
          >
            <option value="">All</option>
            {DASHBOARD_STATUS_FILTER.map((status) => (
              <option key={status} value={status}>
                {ORDER_STATUS_NAME[status]}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="flex flex-col gap-1 sm:col-span-2 lg:col-span-1">
          <legend className={`${labelClass} mb-1`}>Creation date</legend>
          <div className="grid grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] items-center gap-2">
            <label htmlFor={`${id}-from`} className="sr-only">
              Created from
            </label>
            <input
              id={`${id}-from`}
              type="date"
              className={`${inputClass} min-w-0`}
              value={filters.from}
              max={filters.to || undefined}
              onChange={(event) => onChange({ from: event.target.value })}
            />
            <span aria-hidden="true" className="text-slate-600">
              –
            </span>
            <label htmlFor={`${id}-to`} className="sr-only">
              Created to
            </label>
            <input
              id={`${id}-to`}
              type="date"
              className={`${inputClass} min-w-0`}
              value={filters.to}
              min={filters.from || undefined}
              onChange={(event) => onChange({ to: event.target.value })}
            />
          </div>
        </fieldset>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <CheckboxField
          label="Show hidden orders"
          checked={filters.hidden}
          onChange={(event) => onChange({ hidden: event.target.checked })}
        />
        {active && (
          <Button variant="ghost" onClick={onClear}>
            <Icon icon={X} className="size-4" />
            Clear filters
          </Button>
        )}
      </div>
    </form>
  );
}
