import { useState, type ReactNode } from 'react';
import { ChevronDown } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { usePriceBarHeight } from '../hooks/use-price-bar-height';
import { PriceTotal } from './price-summary';

/** The narrow layout's fixed bar (below 992 px): the total, and the summary when opened. */
export function PriceBar({ summary }: { summary: ReactNode }) {
  const [open, setOpen] = useState(false);
  const barRef = usePriceBarHeight();
  return (
    <div
      ref={barRef}
      data-testid="price-bar"
      className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white shadow-[0_-2px_8px_rgba(0,0,0,0.06)] min-[992px]:hidden"
    >
      {open && (
        <div id="price-details" className="border-b border-slate-200 p-4">
          {summary}
        </div>
      )}
      <div className="flex items-center justify-between gap-3 px-4 py-3">
        <button
          type="button"
          aria-expanded={open}
          aria-controls="price-details"
          onClick={() => setOpen((value) => !value)}
          className="flex items-center gap-1 text-sm font-medium text-slate-800"
        >
          Total <Icon icon={ChevronDown} className={`size-4 transition ${open ? 'rotate-180' : ''}`} />
        </button>
        <PriceTotal />
      </div>
    </div>
  );
}
