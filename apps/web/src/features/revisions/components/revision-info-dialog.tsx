import { useId, useState } from 'react';
import { Download, FileText } from 'lucide';
import type { OrderFile } from '@app/domain/files';
import { formatFileSize } from '@app/domain/files/rules';
import type { Revision } from '@app/domain/revision';
import { REVISION_STATUS_NAME, revisionLevel, type RevisionStatusId } from '@app/domain/revision/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Icon } from '@/components/ui/icon';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { downloadRevisionFile, useRevisionFiles, type RevisionFileSide } from '../api/revisions';
import { useNow } from '@/lib/use-now';
import { countdown, formatDateTime } from '@/lib/dates';
import { AddToCalendarButton } from './add-to-calendar-button';
import { RevisionStatusBadge } from './revision-status-badge';

/** A file row: Download reads the file as a stream and shows how far it got (large files take a while). */
function FileRow({ file }: { file: OrderFile }) {
  const [percent, setPercent] = useState<number | null>(null);
  const download = () => {
    setPercent(0);
    downloadRevisionFile(file, setPercent)
      .catch((error: unknown) => toast.error(errorMessage(error)))
      .finally(() => setPercent(null));
  };
  return (
    <li className="flex flex-col gap-1 py-2">
      <div className="flex flex-wrap items-center gap-2">
        <Icon icon={FileText} className="size-5 shrink-0 text-slate-500" />
        <span className="min-w-0 flex-1 break-all text-slate-900">{file.name}</span>
        <span className="text-sm text-slate-700 tabular-nums">{formatFileSize(file.size)}</span>
        <Button variant="secondary" className="px-3!" busy={percent !== null} aria-label={`Download ${file.name}`} onClick={download}>
          <Icon icon={Download} className="size-4" />
          Download
        </Button>
      </div>
      {percent !== null && <ProgressBar value={percent} label={`Downloading ${file.name}`} />}
    </li>
  );
}

function Files({ revisionId, side, title, empty }: { revisionId: number; side: RevisionFileSide; title: string; empty: string }) {
  const files = useRevisionFiles(revisionId, side);
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-1">
      <h3 id={headingId} className="font-semibold">
        {title}
      </h3>
      {files.isPending && (
        <p className="flex items-center gap-2 text-sm text-slate-700">
          <Spinner /> Loading files…
        </p>
      )}
      {files.isError && <Alert tone="error">{errorMessage(files.error)}</Alert>}
      {files.isSuccess && files.data.length === 0 && <p className="text-sm text-slate-700">{empty}</p>}
      {files.isSuccess && files.data.length > 0 && (
        <ul className="divide-y divide-slate-200">
          {files.data.map((file) => (
            <FileRow key={file.id} file={file} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** SPEC §2 "revision info" modal: what was asked, by when, where it stands, and the files of both sides. */
export function RevisionInfoDialog({
  revision,
  open,
  onOpenChange,
}: {
  revision: Revision;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const now = useNow();
  const left = countdown(revision.deadline, now);
  const level = revisionLevel(revision.revisionLevel.id);
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Revision #${revision.id}`}>
      <div className="flex flex-col gap-4 text-sm" data-testid="revision-info">
        <div className="flex flex-wrap items-center gap-2">
          <RevisionStatusBadge status={revision.revisionStatus} />
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
          <dt className="text-slate-700">Requested</dt>
          <dd>
            <time dateTime={revision.dateCreated}>{formatDateTime(revision.dateCreated)}</time>
          </dd>
          <dt className="text-slate-700">Due</dt>
          <dd>
            <time dateTime={revision.deadline}>{formatDateTime(revision.deadline)}</time>
            {left && <span className="text-slate-700"> · {left}</span>}
          </dd>
          <dt className="text-slate-700">Level</dt>
          <dd>
            {revision.revisionLevel.name}
            {level && ` (${level.hours} hours)`}
          </dd>
          <dt className="text-slate-700">Categories</dt>
          <dd>{revision.categories.map((c) => c.name).join(', ')}</dd>
        </dl>
        <div className="flex flex-col gap-1">
          <h3 className="font-semibold">Description</h3>
          <p className="break-words whitespace-pre-wrap text-slate-900">{revision.description}</p>
        </div>
        <AddToCalendarButton
          title={`Revision #${revision.id} of order #${revision.idOrder} due`}
          description={`${revision.revisionLevel.name}: ${revision.description}`}
          at={revision.deadline}
          path={`/orderinfo/${revision.idOrder}/revisions?revision=${revision.id}`}
          uid={`revision-${revision.id}`}
          fileName={`revision-${revision.id}.ics`}
          label="Add due date to calendar"
        />
        <Files revisionId={revision.id} side="writers" title="Writer's files" empty="The writer has not delivered revised files yet." />
        <Files revisionId={revision.id} side="customers" title="Your files" empty="You did not attach files." />
        <details>
          <summary className="cursor-pointer text-slate-700">Status history</summary>
          <ol className="mt-1 flex flex-col gap-1">
            {revision.statusHistory.map((h) => (
              <li key={`${h.status}-${h.date}`} className="flex justify-between gap-2">
                <span>{REVISION_STATUS_NAME[h.status as RevisionStatusId] ?? h.status}</span>
                <time dateTime={h.date} className="text-slate-700">
                  {formatDateTime(h.date)}
                </time>
              </li>
            ))}
          </ol>
        </details>
      </div>
    </Dialog>
  );
}
