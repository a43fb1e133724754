import { REVISION_STATUS_NAME, type RevisionStatusId } from '@app/domain/revision/rules';

/**
 * SPEC §4: all twelve revision statuses, each with its own badge style. Text 900 on 100 (WCAG AA with
 * room); the name is always written out, so colour is never the only signal (WCAG 1.4.1).
 */
const BADGE_CLASS: Record<RevisionStatusId, string> = {
  1: 'bg-sky-100 text-sky-900 ring-sky-300',
  2: 'bg-indigo-100 text-indigo-900 ring-indigo-300',
  3: 'bg-orange-100 text-orange-900 ring-orange-300',
  4: 'bg-rose-100 text-rose-900 ring-rose-300',
  5: 'bg-green-100 text-green-900 ring-green-300',
  6: 'bg-red-100 text-red-900 ring-red-300',
  7: 'bg-slate-200 text-slate-900 ring-slate-400',
  8: 'bg-fuchsia-100 text-fuchsia-900 ring-fuchsia-300',
  9: 'bg-emerald-100 text-emerald-900 ring-emerald-400',
  10: 'bg-stone-200 text-stone-900 ring-stone-400',
  11: 'bg-amber-100 text-amber-900 ring-amber-300',
  12: 'bg-violet-100 text-violet-900 ring-violet-300',
};

export function RevisionStatusBadge({ status }: { status: { id: number; name: string } }) {
  const id = status.id as RevisionStatusId;
  return (
    <span
      data-revision-status={status.id}
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset ${BADGE_CLASS[id] ?? BADGE_CLASS[7]}`}
    >
      {REVISION_STATUS_NAME[id] ?? status.name}
    </span>
  );
}
