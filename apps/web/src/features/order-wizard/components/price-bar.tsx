import { useState, type ReactNode } from 'react';
import { ChevronDown } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { usePriceBarHeight } from '../hooks/use-price-bar-height';
import { PriceBarFrame } from './price-bar-frame';
import { PriceTotal } from './price-summary';

/** The narrow layout's fixed bar (below 992 px): the total, and the summary when opened. */
export function PriceBar({ summary }: { summary: ReactNode }) {
  const [open, setOpen] = useState(false);
  const barRef = usePriceBarHeight();
  return (
    <PriceBarFrame
      barRef={barRef}
      details={
        open && (
          <div id="price-details" className="border-b border-slate-200 p-4">
            {summary}
          </div>
        )
      }
      toggle={
        <button
          type="button"
          aria-expanded={open}
          aria-controls="price-details"
          onClick={() => setOpen((value) => !value)}
          className="flex items-center gap-1 text-sm font-medium text-slate-800"
        >
          Total <Icon icon={ChevronDown} className={`size-4 transition ${open ? 'rotate-180' : ''}`} />
        </button>
      }
      total={<PriceTotal />}
    />
  );
}
