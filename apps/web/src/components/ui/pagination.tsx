import { ChevronLeft, ChevronRight } from 'lucide';
import { Icon } from '@/components/ui/icon';

interface PaginationProps {
  page: number;
  pageCount: number;
  /** the page numbers to show, null for a gap (domain pageWindow) */
  pages: readonly (number | null)[];
  onPageChange: (page: number) => void;
  label?: string;
}

const itemClass = 'inline-flex min-w-10 h-10 items-center justify-center rounded-md px-3 text-sm font-medium disabled:opacity-50';

/** Page numbers with previous and next; the current page is marked for assistive technology. */
export function Pagination({ page, pageCount, pages, onPageChange, label = 'Pagination' }: PaginationProps) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className="flex justify-center">
      <ul className="flex flex-wrap items-center gap-1">
        <li>
          <button
            type="button"
            className={`${itemClass} text-slate-800 hover:bg-slate-200/70`}
            disabled={page <= 1}
            onClick={() => onPageChange(page - 1)}
            aria-label="Previous page"
          >
            <Icon icon={ChevronLeft} className="size-4" />
          </button>
        </li>
        {pages.map((p, index) =>
          p === null ? (
            <li key={`gap-${index}`} aria-hidden="true" className="px-1 text-slate-600">
              …
            </li>
          ) : (
            <li key={p}>
              <button
                type="button"
                className={`${itemClass} ${p === page ? 'bg-primary text-on-primary' : 'text-slate-800 hover:bg-slate-200/70'}`}
                aria-current={p === page ? 'page' : undefined}
                aria-label={`Page ${p}`}
                onClick={() => onPageChange(p)}
              >
                {p}
              </button>
            </li>
          ),
        )}
        <li>
          <button
            type="button"
            className={`${itemClass} text-slate-800 hover:bg-slate-200/70`}
            disabled={page >= pageCount}
            onClick={() => onPageChange(page + 1)}
            aria-label="Next page"
          >
            <Icon icon={ChevronRight} className="size-4" />
          </button>
        </li>
      </ul>
    </nav>
  );
}
