import { useState } from 'react';
import { Link } from 'wouter';
import { Download, Receipt } from 'lucide';
import { pageWindow } from '@app/domain/dashboard/rules';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { amountToCents, formatUsd } from '@app/domain/money';
import { TRANSACTIONS_PAGE_SIZE } from '@app/domain/order/rules';
import { MONEY_PROVIDER_NAME } from '@app/domain/payment';
import type { Transaction } from '@app/domain/transaction';
import { Alert } from '@/components/ui/alert';
import { Button, buttonClass } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Pagination } from '@/components/ui/pagination';
import { Icon } from '@/components/ui/icon';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { downloadDocument, downloadYear, useReceiptYears } from '../api/documents';
import { paths } from '@/config/paths';
import { useTransactions } from '../api/get-transactions';
import { usePageParam } from '../hooks/use-page-param';

// ADR 0022: the server's UTC instants in the customer's own time zone and locale, by Intl.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const TYPE_LABEL = { payment: 'Payment', refund: 'Refund' } as const;

/** A refund is money going back to the customer: written with a minus and named as a refund. */
const amountText = (t: Transaction): string => `${t.type === 'refund' ? '−' : ''}${formatUsd(amountToCents(t.amount))}`;
const statusText = (status: string): string => status.charAt(0).toUpperCase() + status.slice(1);

function OrderLink({ t }: { t: Transaction }) {
  return (
    <Link to={paths.orderInfo(t.orderId)} className="break-words">
      #{t.orderId}
      {t.orderTitle !== '' && <span className="text-slate-700"> · {t.orderTitle}</span>}
    </Link>
  );
}

function TypeBadge({ t }: { t: Transaction }) {
  const refund = t.type === 'refund';
  return (
    <span
      className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${
        refund ? 'bg-fuchsia-100 text-fuchsia-900 ring-fuchsia-300' : 'bg-sky-100 text-sky-900 ring-sky-300'
      }`}
    >
      {TYPE_LABEL[t.type]}
    </span>
  );
}

/** ADR 0036: a sandbox attempt's transaction moved no money; it says so next to its type. */
function SandboxBadge({ t }: { t: Transaction }) {
  if (!t.sandbox) return null;
  return (
    <span
      title="Sandbox payment: no money moved"
      className="ml-1.5 inline-flex rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 ring-1 ring-amber-300 ring-inset"
    >
      Sandbox
    </span>
  );
}

const DOCUMENT_LABEL = { receipt: 'Receipt', credit_note: 'Credit note' } as const;

/** ADR 0085: the row's receipt (a payment) or credit note (a refund) as a PDF; nothing for parked money. */
function DocumentButton({ t }: { t: Transaction }) {
  const [busy, setBusy] = useState(false);
  const doc = t.document;
  if (!doc) return <span className="text-slate-600">—</span>;
  const download = () => {
    setBusy(true);
    downloadDocument(t.id, doc)
      .catch((error: unknown) => toast.error(errorMessage(error)))
      .finally(() => setBusy(false));
  };
  return (
    <Button
      variant="link"
      busy={busy}
      onClick={download}
      aria-label={`Download ${DOCUMENT_LABEL[doc.kind].toLowerCase()} ${doc.number} (PDF)`}
    >
      <Icon icon={Download} className="size-4" />
      {doc.number}
    </Button>
  );
}

/** ADR 0085: every receipt and credit note of one year as one ZIP. */
function YearArchive() {
  const years = useReceiptYears();
  const [chosen, setChosen] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const list = years.data?.years ?? [];
  const first = list[0];
  if (first === undefined) return null;
  const year = chosen !== null && list.includes(chosen) ? chosen : first;
  const download = () => {
    setBusy(true);
    downloadYear(year)
      .catch((error: unknown) => toast.error(errorMessage(error)))
      .finally(() => setBusy(false));
  };
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <label htmlFor="receipts-year" className="text-slate-700">
        All receipts of
      </label>
      <select
        id="receipts-year"
        value={year}
        onChange={(e) => setChosen(Number(e.target.value))}
        className="rounded-md border border-slate-300 bg-white px-2 py-1.5"
      >
        {list.map((y) => (
          <option key={y} value={y}>
            {y}
          </option>
        ))}
      </select>
      <Button variant="secondary" busy={busy} onClick={download}>
        <Icon icon={Download} className="size-4" />
        Download ZIP
      </Button>
    </div>
  );
}

/** SPEC §9 "Narrow-screen threshold": a table from 992 px on. */
function TransactionsTable({ transactions }: { transactions: Transaction[] }) {
  return (
    <div data-focus-inset className="hidden overflow-hidden rounded-lg border border-slate-200 bg-white lg:block">
      <table className="w-full border-collapse text-sm">
        <caption className="sr-only">Your payments and refunds</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-medium">
              Date
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Order
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Type
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Payment system
            </th>
            <th scope="col" className="px-4 py-3 text-right font-medium">
              Amount
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Status
            </th>
            <th scope="col" className="px-4 py-3 font-medium">
              Receipt
            </th>
          </tr>
        </thead>
        <tbody>
          {transactions.map((t) => (
            <tr key={t.id} className="border-t border-slate-200 align-top">
              <td className="px-4 py-3 whitespace-nowrap">
                <time dateTime={t.date}>{dateTime.format(new Date(t.date))}</time>
              </td>
              <td className="max-w-80 px-4 py-3">
                <OrderLink t={t} />
              </td>
              <td className="px-4 py-3 whitespace-nowrap">
                <TypeBadge t={t} />
                <SandboxBadge t={t} />
              </td>
              <td className="px-4 py-3">{MONEY_PROVIDER_NAME[t.provider]}</td>
              <td className="px-4 py-3 text-right font-semibold whitespace-nowrap tabular-nums">{amountText(t)}</td>
              <td className="px-4 py-3">{statusText(t.status)}</td>
              <td className="px-4 py-3 whitespace-nowrap">
                <DocumentButton t={t} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Below 992 px: one stacked row per transaction. */
function TransactionRows({ transactions }: { transactions: Transaction[] }) {
  return (
    <ul aria-label="Your payments and refunds" className="flex flex-col gap-3 lg:hidden">
      {transactions.map((t) => (
        <li key={t.id} className="flex flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <div className="flex items-start justify-between gap-3">
            <div className="flex min-w-0 flex-col gap-1">
              <OrderLink t={t} />
              <time dateTime={t.date} className="text-slate-700">
                {dateTime.format(new Date(t.date))}
              </time>
            </div>
            <span className="text-base font-semibold whitespace-nowrap tabular-nums">{amountText(t)}</span>
          </div>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-700">
            <span className="inline-flex">
              <TypeBadge t={t} />
              <SandboxBadge t={t} />
            </span>
            <span>{MONEY_PROVIDER_NAME[t.provider]}</span>
            <span aria-hidden="true">·</span>
            <span>{statusText(t.status)}</span>
          </div>
          {t.document && (
            <div>
              <DocumentButton t={t} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

/** SPEC §2 "/transactions": the customer's payments and refunds, 16 a page (SPEC §9), with page numbers. */
export function TransactionsList() {
  const [page, setPage] = usePageParam();
  const list = useTransactions(page);

  if (list.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-slate-700">
        <Spinner /> Loading your transactions…
      </p>
    );
  }
  if (list.isError) return <Alert tone="error">{TRANSPORT_MESSAGE.somethingWentWrong}</Alert>;

  const { transactions, total } = list.data;
  const pageCount = Math.ceil(total / TRANSACTIONS_PAGE_SIZE);
  if (transactions.length === 0 && total > 0) {
    // A page past the end (an old link): the last page there is.
    return (
      <Button variant="secondary" className="self-start" onClick={() => setPage(pageCount)}>
        Go to the last page
      </Button>
    );
  }
  if (transactions.length === 0) {
    return (
      <EmptyState
        icon={Receipt}
        title="You have no transactions yet"
        actions={
          <Link to={paths.dashboard} className={buttonClass('secondary', 'no-underline')}>
            Go to All Orders
          </Link>
        }
      >
        <p>When you pay for an order, or a payment is refunded, it is listed here.</p>
      </EmptyState>
    );
  }

  const first = (page - 1) * TRANSACTIONS_PAGE_SIZE + 1;
  return (
    <div className="flex flex-col gap-4" aria-busy={list.isPlaceholderData || undefined}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p aria-live="polite" className="text-sm text-slate-700">
          Showing {first}–{first + transactions.length - 1} of {total} {total === 1 ? 'transaction' : 'transactions'}
        </p>
        <YearArchive />
      </div>
      <TransactionsTable transactions={transactions} />
      <TransactionRows transactions={transactions} />
      <Pagination page={page} pageCount={pageCount} pages={pageWindow(page, pageCount)} onPageChange={setPage} label="Transaction pages" />
    </div>
  );
}
