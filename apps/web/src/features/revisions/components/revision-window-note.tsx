import { REVISION_MESSAGE } from '@app/domain/revision/rules';
import type { RevisionList } from '@app/domain/revision';
import { formatDate } from '@/lib/dates';

/** CONTRACT "Revisions": the free-revision window from completion, or that it has closed. */
export function RevisionWindowText({ window }: { window: RevisionList['window'] }) {
  if (window.until === null) return null;
  return (
    <p data-testid="revision-window" className={window.open ? 'text-slate-800' : 'text-slate-700'}>
      {window.open
        ? REVISION_MESSAGE.windowOpen(formatDate(window.until), window.daysLeft)
        : REVISION_MESSAGE.windowEnded(formatDate(window.until))}
    </p>
  );
}
