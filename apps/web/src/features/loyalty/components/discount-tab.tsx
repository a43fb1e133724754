import { formatPercent } from '@app/domain/loyalty/rules';
import { amountToCents, formatUsd } from '@app/domain/money';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { useLoyaltySummary } from '../api/loyalty';
import { CodeStateBadge } from './code-state-badge';
import { CopyButton } from './copy-button';
import { formatDate } from '@/lib/dates';

const SOURCE = { loyalty: 'Loyalty points', referral: 'Referral' } as const;

/** SPEC §2 /loyalty discount sub-tab: every generated code and its state. */
export function DiscountTab() {
  const summary = useLoyaltySummary();
  if (summary.isPending) {
    return (
      <p className="flex items-center gap-2 text-sm text-slate-700">
        <Spinner /> Loading your codes…
      </p>
    );
  }
  if (summary.isError) return <Alert tone="error">Something went wrong while loading your codes.</Alert>;
  const codes = summary.data.codes;
  if (codes.length === 0) {
    return (
      <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-700">
        You have no discount codes yet.
      </p>
    );
  }
  return (
    <ul aria-label="Your discount codes" className="flex flex-col gap-3">
      {codes.map((c) => (
        <li
          key={c.code}
          className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 text-sm sm:flex-row sm:items-center sm:justify-between"
          data-testid="discount-code-item"
        >
          <div className="flex min-w-0 flex-col gap-1">
            <p className="flex flex-wrap items-center gap-2">
              <code className="rounded bg-slate-100 px-2 py-0.5 font-mono font-semibold break-all">{c.code}</code>
              <span>
                {formatPercent(c.percent)} off, up to {formatUsd(amountToCents(c.maxAmountDiscount))}
              </span>
            </p>
            <p className="text-slate-700">
              {SOURCE[c.source]} · created <time dateTime={c.dateCreated}>{formatDate(c.dateCreated)}</time>
              {c.state === 'used' && c.idOrder !== null && <> · used on order #{c.idOrder}</>}
              {c.state !== 'used' && c.expiresAt && (
                <>
                  {' '}
                  · {c.state === 'expired' ? 'expired' : 'expires'} <time dateTime={c.expiresAt}>{formatDate(c.expiresAt)}</time>
                </>
              )}
            </p>
          </div>
          <div className="flex shrink-0 items-center gap-3">
            <CodeStateBadge state={c.state} />
            {c.state === 'active' && <CopyButton text={c.code} label={`Copy the code ${c.code}`} />}
          </div>
        </li>
      ))}
    </ul>
  );
}
