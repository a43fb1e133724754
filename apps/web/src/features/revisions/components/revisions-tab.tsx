import { useState } from 'react';
import { RotateCcw } from 'lucide';
import { useQueryClient } from '@tanstack/react-query';
import { pageWindow } from '@app/domain/dashboard/rules';
import { REVISIONS_PAGE_SIZE } from '@app/domain/order/rules';
import { REVISION_MESSAGE } from '@app/domain/revision/rules';
import type { Revision } from '@app/domain/revision';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Icon } from '@/components/ui/icon';
import { Pagination } from '@/components/ui/pagination';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useRevision, useRevisions } from '../api/revisions';
import { useNow } from '@/lib/use-now';
import { countdown, formatDateTime } from '@/lib/dates';
import { RevisionInfoDialog } from './revision-info-dialog';
import { RevisionStatusBadge } from './revision-status-badge';
import { RevisionWizard } from './revision-wizard';

function RevisionRow({ revision, now, onOpen }: { revision: Revision; now: number; onOpen: () => void }) {
  const left = countdown(revision.deadline, now);
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        data-testid="revision-row"
        aria-label={`Revision #${revision.id}, ${revision.revisionStatus.name}: open details`}
        className="flex w-full flex-col gap-2 rounded-lg border border-slate-200 bg-white p-4 text-left text-sm hover:border-primary focus-visible:border-primary"
      >
        <span className="flex flex-wrap items-center gap-2">
          <span className="font-semibold text-slate-900">Revision #{revision.id}</span>
          <RevisionStatusBadge status={revision.revisionStatus} />
          <span className="text-slate-700">{revision.revisionLevel.name}</span>
        </span>
        <span className="grid gap-1 sm:grid-cols-2">
          <span>
            <span className="text-slate-700">Requested </span>
            <time dateTime={revision.dateCreated}>{formatDateTime(revision.dateCreated)}</time>
          </span>
          <span>
            <span className="text-slate-700">Due </span>
            <time dateTime={revision.deadline}>{formatDateTime(revision.deadline)}</time>
            {left && <span className="text-slate-700"> · {left}</span>}
          </span>
        </span>
        <span className="text-slate-700">{revision.categories.map((c) => c.name).join(', ')}</span>
        <span className="line-clamp-2 break-words text-slate-900">{revision.description}</span>
      </button>
    </li>
  );
}

interface RevisionsTabProps {
  orderId: number;
  /** a revision to open at once (the completion mail links to it) */
  initialRevisionId?: number | null;
  /** the order changed (its active revision): the page reloads it */
  onChanged: () => void;
}

/** SPEC §2 "Revisions" tab: the order's revisions, 10 a page, newest first; the request wizard and the info modal. */
export function RevisionsTab({ orderId, initialRevisionId = null, onChanged }: RevisionsTabProps) {
  const [page, setPage] = useState(1);
  const [wizardOpen, setWizardOpen] = useState(false);
  const [openId, setOpenId] = useState<number | null>(initialRevisionId);
  const list = useRevisions(orderId, page);
  // The mailed link may name a revision that is not on this page: it is fetched on its own.
  const onPage = list.data?.revisions.find((r) => r.id === openId);
  const single = useRevision(openId, list.isSuccess && onPage === undefined);
  const queryClient = useQueryClient();
  const now = useNow();

  if (list.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-slate-700">
        <Spinner /> Loading revisions…
      </p>
    );
  }
  if (list.isError) return <Alert tone="error">{errorMessage(list.error)}</Alert>;

  const { revisions, total, window, activeRevision } = list.data;
  const pageCount = Math.max(1, Math.ceil(total / REVISIONS_PAGE_SIZE));
  const refusal = activeRevision !== null ? REVISION_MESSAGE.activeRevision : !window.open ? REVISION_MESSAGE.windowClosed : null;
  const opened = onPage ?? (single.data?.idOrder === orderId ? single.data : undefined);
  const tooltipId = `revision-request-hint-${orderId}`;

  return (
    <div className="flex flex-col gap-4" data-testid="revisions-tab">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <p className="text-slate-800">Changes to the delivered paper within its instructions are free during the revision period.</p>
        <div className="flex flex-col items-start gap-1 sm:items-end">
          <Button disabled={refusal !== null} aria-describedby={refusal ? tooltipId : undefined} onClick={() => setWizardOpen(true)}>
            <Icon icon={RotateCcw} className="size-4" />
            Request a revision
          </Button>
          {refusal && (
            <p id={tooltipId} className="text-sm text-slate-700">
              {refusal}
            </p>
          )}
        </div>
      </div>
      {revisions.length === 0 ? (
        <EmptyState icon={RotateCcw} title="No revisions yet">
          <p>If the paper needs changes, request a free revision within the revision period.</p>
        </EmptyState>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Revisions">
          {revisions.map((revision) => (
            <RevisionRow key={revision.id} revision={revision} now={now} onOpen={() => setOpenId(revision.id)} />
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} pages={pageWindow(page, pageCount)} onPageChange={setPage} label="Revision pages" />
      {opened && <RevisionInfoDialog revision={opened} open onOpenChange={(open) => !open && setOpenId(null)} />}
      {wizardOpen && (
        <RevisionWizard
          orderId={orderId}
          open={wizardOpen}
          onOpenChange={setWizardOpen}
          onCreated={() => {
            setPage(1);
            void queryClient.invalidateQueries({ queryKey: ['revisions', 'files'] });
            onChanged();
          }}
        />
      )}
    </div>
  );
}
