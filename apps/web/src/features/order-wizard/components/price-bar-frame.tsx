import type { ReactNode, Ref } from 'react';
import { createPortal } from 'react-dom';
import { ChevronDown } from 'lucide';
import { Icon } from '@/components/ui/icon';

/**
 * The narrow layout's fixed bar (below 992 px), as drawn: the first paint draws it with a dash for the
 * total (`PriceBarPlaceholder`), the price's code then draws the same frame with the total and the
 * summary (`PriceBar`), so the bar keeps its place and its height (ADR 0062).
 */
export function PriceBarFrame({
  barRef,
  details,
  toggle,
  total,
}: {
  barRef?: Ref<HTMLDivElement>;
  details?: ReactNode;
  toggle: ReactNode;
  total: ReactNode;
}) {
  return (
    <div
      ref={barRef}
      data-testid="price-bar"
      className="fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white shadow-[0_-2px_8px_rgba(0,0,0,0.06)] min-[992px]:hidden"
    >
      {details}
      <div className="flex items-center justify-between gap-3 px-4 py-3">
        {toggle}
        {total}
      </div>
    </div>
  );
}

/** The price until its code is here, a moment after the first paint: a note beside the steps, the bar with a dash. */
export function PricePlaceholder({ asideSlot }: { asideSlot: HTMLElement | null }) {
  return (
    <>
      {asideSlot && createPortal(<p className="text-sm text-slate-600">Loading prices…</p>, asideSlot)}
      <PriceBarFrame
        toggle={
          <span className="flex items-center gap-1 text-sm font-medium text-slate-800">
            Total <Icon icon={ChevronDown} className="size-4" />
          </span>
        }
        total={<span className="text-lg font-semibold">—</span>}
      />
    </>
  );
}
