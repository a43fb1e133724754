import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  isActiveRevisionStatus,
  REVISION_STATUS,
  REVISION_STATUS_NAME,
  REVISION_TRANSITIONS,
  WRITER_REVISION_STATUSES,
  type RevisionStatusId,
} from '@app/domain/revision';
import { Button } from '@/components/ui/button';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { UploadCanceledError } from '@/lib/upload';
import { staffKeys } from '../api/keys';
import { deliverRevisionFile, useOrderRevisions, useSetRevisionStatus, type StaffRevision } from '../api/revisions';

/** What a move is called on its button. */
const MOVE_LABEL: Partial<Record<RevisionStatusId, string>> = {
  [REVISION_STATUS.inProgress]: 'Start work',
  [REVISION_STATUS.verifying]: 'Hand in for checking',
  [REVISION_STATUS.completed]: 'Mark completed',
  [REVISION_STATUS.rejected]: 'Reject',
  [REVISION_STATUS.disputed]: 'Mark disputed',
  [REVISION_STATUS.canceled]: 'Cancel revision',
};

/** ADR 0044, 0089: a revised file, with its progress (the writer file of the revision). */
function RevisedFile({ revision, orderId }: { revision: StaffRevision; orderId: number }) {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const queryClient = useQueryClient();
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      setError('Choose the revised file');
      return;
    }
    setError(null);
    abort.current = new AbortController();
    setPercent(0);
    try {
      const stored = await deliverRevisionFile(revision.id, file, setPercent, abort.current.signal);
      toast.success(`${stored.name} uploaded to revision #${revision.id}`);
      setFile(null);
      if (inputRef.current) inputRef.current.value = '';
      void queryClient.invalidateQueries({ queryKey: staffKeys.files(orderId) });
    } catch (caught) {
      if (!(caught instanceof UploadCanceledError)) setError(errorMessage(caught));
    } finally {
      setPercent(null);
      abort.current = null;
    }
  };
  return (
    <form
      onSubmit={(event) => void onSubmit(event)}
      className="flex flex-col gap-2"
      aria-label={`Revised file for revision #${revision.id}`}
      noValidate
    >
      <label htmlFor={inputId} className="text-sm font-medium text-slate-800">
        Revised file
      </label>
      <input
        ref={inputRef}
        id={inputId}
        type="file"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${inputId}-error` : undefined}
        className="max-w-full text-sm file:mr-3 file:rounded-md file:border file:border-slate-300 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-medium"
        onChange={(event) => setFile(event.target.files?.[0] ?? null)}
      />
      {error && (
        <p id={`${inputId}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
      {percent !== null && <ProgressBar value={percent} label={`Uploading ${file?.name ?? 'file'}`} />}
      <div className="flex gap-2">
        <Button type="submit" variant="secondary" busy={percent !== null}>
          Upload revised file
        </Button>
        {percent !== null && (
          <Button variant="ghost" onClick={() => abort.current?.abort()}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}

/**
 * ADR 0044, 0089: the order's revisions in the console: what the customer asked, by when, the moves the
 * revision's table allows (a writer: start and hand in; support: every allowed move), and revised files.
 */
export function OrderRevisions({ orderId, support }: { orderId: number; support: boolean }) {
  const revisions = useOrderRevisions(orderId);
  const move = useSetRevisionStatus(orderId);
  if (revisions.isPending)
    return (
      <div className="flex items-center gap-2 text-sm" role="status">
        <Spinner /> Loading revisions…
      </div>
    );
  if (revisions.isError) return <p className="text-sm text-red-700">{errorMessage(revisions.error)}</p>;
  if (revisions.data.revisions.length === 0) return <p className="text-sm text-slate-700">No revision requested.</p>;
  return (
    <ol aria-label="Revisions" className="flex flex-col gap-4">
      {revisions.data.revisions.map((r) => {
        const from = r.revisionStatus.id as RevisionStatusId;
        const moves = (REVISION_TRANSITIONS[from] ?? []).filter((to) => support || WRITER_REVISION_STATUSES.includes(to));
        return (
          <li key={r.id} className="flex flex-col gap-2 border-t border-slate-200 pt-3 first:border-t-0 first:pt-0">
            <p className="text-sm">
              <span className="font-semibold">Revision #{r.id}</span> · {r.revisionStatus.name} · due {formatDateTime(r.deadline)}
            </p>
            <p className="text-sm text-slate-700">
              {r.revisionLevel.name} · {r.categories.map((c) => c.name).join(', ')}
            </p>
            <p className="text-sm break-words whitespace-pre-wrap">{r.description}</p>
            {moves.length > 0 && (
              <div className="flex flex-wrap gap-2" role="group" aria-label={`Moves for revision #${r.id}`}>
                {moves.map((to) => (
                  <Button
                    key={to}
                    variant="secondary"
                    busy={move.isPending && move.variables?.status === to && move.variables.revisionId === r.id}
                    onClick={() =>
                      move.mutate(
                        { revisionId: r.id, status: to },
                        {
                          onSuccess: (next) => toast.success(`Revision #${r.id}: ${next.revisionStatus.name}`),
                          onError: (error) => toast.error(errorMessage(error)),
                        },
                      )
                    }
                  >
                    {MOVE_LABEL[to] ?? REVISION_STATUS_NAME[to]}
                  </Button>
                ))}
              </div>
            )}
            {isActiveRevisionStatus(from) && <RevisedFile revision={r} orderId={orderId} />}
          </li>
        );
      })}
    </ol>
  );
}
