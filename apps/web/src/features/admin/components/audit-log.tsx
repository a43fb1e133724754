import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { pageWindow } from '@app/domain/dashboard/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Pagination } from '@/components/ui/pagination';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { AUDIT_PAGE_SIZE, downloadAuditCsv, useAuditLog } from '../api/admin';

const ID = /^\d{0,10}$/;
const show = (value: unknown): string => (value === null || value === undefined ? '—' : JSON.stringify(value));
/** Longer values (a price table) fold away behind a summary, so the list stays readable on a phone. */
const LONG = 400;

function Value({ label, value }: { label: string; value: unknown }) {
  return (
    <div className="min-w-0">
      <p className="text-xs font-semibold text-slate-700 uppercase">{label}</p>
      <pre className="rounded bg-slate-100 p-2 text-xs break-all whitespace-pre-wrap">{show(value)}</pre>
    </div>
  );
}

function Values({ before, after }: { before: unknown; after: unknown }) {
  const grid = (
    <div className="grid gap-2 sm:grid-cols-2">
      <Value label="Before" value={before} />
      <Value label="After" value={after} />
    </div>
  );
  if (show(before).length + show(after).length <= LONG) return grid;
  return (
    <details>
      <summary className="cursor-pointer text-sm text-primary-text underline underline-offset-2">Before and after</summary>
      <div className="mt-2">{grid}</div>
    </details>
  );
}

/** ADR 0090: every staff change with who, when, before and after; searchable by order and actor; CSV of the same filter. */
export function AuditLog() {
  const [filter, setFilter] = useState({ page: 1, orderId: '', actorId: '' });
  const log = useAuditLog(filter);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<{ orderId: string; actorId: string }>({
    defaultValues: { orderId: '', actorId: '' },
  });
  const onSubmit = handleSubmit((values) =>
    setFilter({ page: 1, orderId: values.orderId.trim().replace(/^#/, ''), actorId: values.actorId.trim().replace(/^#/, '') }),
  );
  const idRule = { validate: (v: string) => ID.test(v.trim().replace(/^#/, '')) || 'An id is a number' };
  const pageCount = log.data ? Math.max(1, Math.ceil(log.data.total / AUDIT_PAGE_SIZE)) : 1;

  const onExport = async () => {
    setExporting(true);
    setExportError(null);
    try {
      await downloadAuditCsv(filter);
    } catch (error) {
      setExportError(errorMessage(error));
    } finally {
      setExporting(false);
    }
  };

  return (
    <section aria-labelledby="audit-heading" className="flex flex-col gap-4">
      <h2 id="audit-heading" className="text-lg font-semibold">
        Entries, newest first
      </h2>
      <form
        noValidate
        role="search"
        aria-label="Search the audit log"
        onSubmit={(event) => void onSubmit(event)}
        className="flex flex-wrap items-end gap-3"
      >
        <div className="w-40">
          <TextField label="Order id" inputMode="numeric" error={formState.errors.orderId?.message} {...register('orderId', idRule)} />
        </div>
        <div className="w-40">
          <TextField
            label="Staff account id"
            inputMode="numeric"
            error={formState.errors.actorId?.message}
            {...register('actorId', idRule)}
          />
        </div>
        <Button type="submit" variant="secondary">
          Search
        </Button>
        <Button variant="secondary" busy={exporting} onClick={() => void onExport()}>
          Export CSV
        </Button>
      </form>
      {exportError && <Alert tone="error">{exportError}</Alert>}
      {log.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm">
          <Spinner /> Loading…
        </p>
      ) : log.isError ? (
        <Alert tone="error" title="The audit log could not be loaded">
          {errorMessage(log.error)}
        </Alert>
      ) : log.data.entries.length === 0 ? (
        <p className="text-sm text-slate-700">No entries.</p>
      ) : (
        <>
          <p className="text-sm text-slate-700" aria-live="polite">
            {log.data.total} {log.data.total === 1 ? 'entry' : 'entries'}
          </p>
          <ol aria-label="Audit entries" className="flex flex-col divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
            {log.data.entries.map((e) => (
              <li key={e.id} className="flex flex-col gap-2 p-4">
                <p className="flex flex-wrap gap-x-3 text-sm">
                  <span className="font-semibold">{e.action}</span>
                  <span>{formatDateTime(e.at)}</span>
                  <span>{e.actorId === null ? 'command line' : `by staff #${e.actorId}`}</span>
                  {e.orderId !== undefined && <span>order #{e.orderId}</span>}
                </p>
                <Values before={e.before} after={e.after} />
              </li>
            ))}
          </ol>
          <Pagination
            label="Audit pages"
            page={filter.page}
            pageCount={pageCount}
            pages={pageWindow(filter.page, pageCount)}
            onPageChange={(page) => setFilter((f) => ({ ...f, page }))}
          />
        </>
      )}
    </section>
  );
}
