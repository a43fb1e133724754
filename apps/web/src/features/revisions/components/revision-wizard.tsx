import { useRef, useState, type ChangeEvent } from 'react';
import { Paperclip, X } from 'lucide';
import { formatFileSize, ORDER_FILE_EXTENSIONS, validateOrderFile } from '@app/domain/files/rules';
import {
  canFinishRevision,
  canOpenNatureStep,
  canOpenTimeFrameStep,
  REVISION_MESSAGE,
  REVISION_WIZARD_STEPS,
  revisionEta,
} from '@app/domain/revision/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Icon } from '@/components/ui/icon';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useFinishRevision, useRevisionCategories, useRevisionLevels } from '../api/revisions';
import { useNow } from '@/lib/use-now';
import { useRevisionDraft } from '../hooks/use-revision-draft';
import { formatDateTime } from '@/lib/dates';

interface PickedFile {
  key: number;
  file: File;
  /** SPEC §5 message when the file may not be attached */
  problem: string | null;
  percent: number | null;
  error: string | null;
  controller: AbortController | null;
}

const ACCEPT = ORDER_FILE_EXTENSIONS.map((ext) => (ext === 'tar-gz' ? '.tar.gz' : `.${ext}`)).join(',');

/** The Revision Policy the customer accepts in step 1 (ADR 0044). */
function PolicyText() {
  return (
    <div
      data-focus-inset
      className="flex max-h-60 flex-col gap-2 overflow-y-auto rounded-md border border-slate-200 bg-slate-50 p-3 text-sm text-slate-800"
    >
      <p>A free revision asks the writer to change the delivered paper so that it meets your original instructions.</p>
      <ul className="list-disc pl-5">
        <li>
          Free revisions can be requested until the revision period ends: 14 days after completion for papers under 30 pages, 30 days for
          longer papers.
        </li>
        <li>One revision can be active at a time.</li>
        <li>The revision must stay within the original instructions; new requirements are a new order.</li>
        <li>The time-frame you choose sets the due date of the revision.</li>
      </ul>
    </div>
  );
}

interface RevisionWizardProps {
  orderId: number;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** called after the revision was created (and its files uploaded) */
  onCreated: () => void;
}

/** SPEC §4 "Revision wizard": Revision Policy, Nature of revision, Time-frame; SPEC §2 "revision create" modal. */
export function RevisionWizard({ orderId, open, onOpenChange, onCreated }: RevisionWizardProps) {
  const { draft, update, clear } = useRevisionDraft(orderId);
  const categories = useRevisionCategories();
  const levels = useRevisionLevels();
  const now = useNow();
  const [files, setFiles] = useState<PickedFile[]>([]);
  const finishing = useFinishRevision(orderId);
  const submitting = finishing.isPending;
  const failure = finishing.isError ? errorMessage(finishing.error) : null;
  const fieldErrors = finishing.error instanceof ApiError ? finishing.error.fieldErrors : {};
  const nextKey = useRef(1);
  const inputRef = useRef<HTMLInputElement>(null);

  const step =
    draft.step === 2 && !canOpenTimeFrameStep(draft)
      ? canOpenNatureStep(draft)
        ? 1
        : 0
      : draft.step === 1 && !canOpenNatureStep(draft)
        ? 0
        : draft.step;
  const filesOk = files.every((f) => f.problem === null);
  const canFinish = canFinishRevision({ ...draft, submitting }) && filesOk;

  const setFile = (key: number, change: Partial<PickedFile>) =>
    setFiles((list) => list.map((f) => (f.key === key ? { ...f, ...change } : f)));
  const onPick = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = [...(event.target.files ?? [])];
    event.target.value = '';
    setFiles((list) => [
      ...list,
      ...picked.map((file) => ({
        key: nextKey.current++,
        file,
        problem: validateOrderFile(file),
        percent: null,
        error: null,
        controller: null,
      })),
    ]);
  };
  const toggleCategory = (id: number) =>
    update({ categories: draft.categories.includes(id) ? draft.categories.filter((c) => c !== id) : [...draft.categories, id] });

  const finish = () => {
    if (!canFinish || draft.level === null) return;
    const uploads = files.map((picked) => ({
      file: picked.file,
      start: () => {
        const controller = new AbortController();
        setFile(picked.key, { percent: 0, controller });
        return { signal: controller.signal, onProgress: (percent: number) => setFile(picked.key, { percent }) };
      },
    }));
    finishing
      .mutateAsync({ body: { category: draft.categories, describeProblem: draft.description, revisionLevel: draft.level }, uploads })
      .then(
        ({ problems }) => {
          clear();
          setFiles([]);
          onOpenChange(false);
          toast.success(REVISION_MESSAGE.created);
          for (const problem of problems) toast.error(problem);
          onCreated();
        },
        // Nothing is lost: the draft stays, the customer fixes and finishes again (the error shows below).
        () => undefined,
      );
  };

  return (
    <Dialog open={open} onOpenChange={(next) => !submitting && onOpenChange(next)} title="Request a revision">
      <div className="flex flex-col gap-4" data-testid="revision-wizard">
        <ol className="flex gap-2 text-xs" aria-label="Steps">
          {REVISION_WIZARD_STEPS.map((name, index) => (
            <li
              key={name}
              aria-current={index === step ? 'step' : undefined}
              className={`flex-1 border-t-4 pt-1 ${index <= step ? 'border-primary font-semibold text-slate-900' : 'border-slate-200 text-slate-600'}`}
            >
              {index + 1}. {name}
            </li>
          ))}
        </ol>

        {step === 0 && (
          <section className="flex flex-col gap-3" aria-label={REVISION_WIZARD_STEPS[0]}>
            <h3 className="font-semibold">{REVISION_WIZARD_STEPS[0]}</h3>
            <PolicyText />
            <label className="flex items-start gap-2 text-sm">
              <input
                type="checkbox"
                className="mt-0.5 size-4"
                checked={draft.policyAccepted}
                onChange={(event) => update({ policyAccepted: event.target.checked })}
              />
              I have read and accept the Revision Policy
            </label>
            {!draft.policyAccepted && <p className="text-sm text-slate-700">{REVISION_MESSAGE.policyRequired}</p>}
          </section>
        )}

        {step === 1 && (
          <section className="flex flex-col gap-3" aria-label={REVISION_WIZARD_STEPS[1]}>
            <h3 className="font-semibold">{REVISION_WIZARD_STEPS[1]}</h3>
            <fieldset className="flex flex-col gap-1">
              <legend className="mb-1 text-sm font-medium text-slate-800">What needs to change? (at least one)</legend>
              {categories.isPending && <Spinner />}
              {categories.isError && <Alert tone="error">{errorMessage(categories.error)}</Alert>}
              {categories.data?.map((c) => (
                <label key={c.id} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={draft.categories.includes(c.id)}
                    onChange={() => toggleCategory(c.id)}
                  />
                  {c.name}
                </label>
              ))}
              {fieldErrors.category?.map((m) => (
                <p key={m} className="text-sm text-red-700">
                  {m}
                </p>
              ))}
            </fieldset>
            <div className="flex flex-col gap-1">
              <label htmlFor={`revision-description-${orderId}`} className="text-sm font-medium text-slate-800">
                Description
              </label>
              <textarea
                id={`revision-description-${orderId}`}
                rows={4}
                className="rounded-md border border-slate-300 p-2 text-sm"
                value={draft.description}
                aria-invalid={fieldErrors.describeProblem ? true : undefined}
                onChange={(event) => update({ description: event.target.value })}
              />
              {draft.description.trim() === '' && <p className="text-sm text-slate-700">{REVISION_MESSAGE.descriptionRequired}</p>}
              {fieldErrors.describeProblem?.map((m) => (
                <p key={m} className="text-sm text-red-700">
                  {m}
                </p>
              ))}
            </div>
            <div className="flex flex-col gap-2">
              <input
                ref={inputRef}
                type="file"
                multiple
                className="sr-only"
                tabIndex={-1}
                aria-hidden="true"
                accept={ACCEPT}
                onChange={onPick}
                data-testid="revision-file-input"
              />
              <div>
                <Button variant="secondary" onClick={() => inputRef.current?.click()}>
                  <Icon icon={Paperclip} className="size-4" />
                  Attach files (optional)
                </Button>
              </div>
              <FileList files={files} onRemove={(key) => setFiles((list) => list.filter((f) => f.key !== key))} busy={submitting} />
            </div>
          </section>
        )}

        {step === 2 && (
          <section className="flex flex-col gap-3" aria-label={REVISION_WIZARD_STEPS[2]}>
            <h3 className="font-semibold">{REVISION_WIZARD_STEPS[2]}</h3>
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium text-slate-800">How much time may the writer take?</legend>
              {levels.isPending && <Spinner />}
              {levels.data?.map((level) => {
                const due = revisionEta(new Date(now), level.id);
                return (
                  <label
                    key={level.id}
                    className="flex items-start gap-2 rounded-md border border-slate-200 p-2 text-sm has-[:checked]:border-primary"
                  >
                    <input
                      type="radio"
                      name={`revision-level-${orderId}`}
                      className="mt-0.5 size-4"
                      checked={draft.level === level.id}
                      onChange={() => update({ level: level.id })}
                    />
                    <span className="flex flex-col">
                      <span className="font-medium">
                        {level.name} · {level.hours} hours
                      </span>
                      {due && <span className="text-slate-700">Due {formatDateTime(due)}</span>}
                    </span>
                  </label>
                );
              })}
              {fieldErrors.revisionLevel?.map((m) => (
                <p key={m} className="text-sm text-red-700">
                  {m}
                </p>
              ))}
            </fieldset>
            <FileList files={files} busy={submitting} />
          </section>
        )}

        {failure && <Alert tone="error">{failure}</Alert>}

        <div className="flex flex-wrap justify-between gap-2">
          <Button variant="ghost" disabled={step === 0 || submitting} onClick={() => update({ step: step === 2 ? 1 : 0 })}>
            Back
          </Button>
          {step === 0 && (
            <Button disabled={!canOpenNatureStep(draft)} onClick={() => update({ step: 1 })}>
              Next
            </Button>
          )}
          {step === 1 && (
            <Button disabled={!canOpenTimeFrameStep(draft) || !filesOk} onClick={() => update({ step: 2 })}>
              Next
            </Button>
          )}
          {step === 2 && (
            <Button disabled={!canFinish} busy={submitting} onClick={finish}>
              Finish
            </Button>
          )}
        </div>
      </div>
    </Dialog>
  );
}

function FileList({ files, onRemove, busy }: { files: PickedFile[]; onRemove?: (key: number) => void; busy: boolean }) {
  if (files.length === 0) return null;
  return (
    <ul aria-label="Files to attach" className="flex flex-col gap-2">
      {files.map((f) => (
        <li key={f.key} className="flex flex-col gap-1 rounded-md border border-slate-200 p-2 text-sm">
          <div className="flex items-center gap-2">
            <span className="min-w-0 flex-1 break-all">{f.file.name}</span>
            <span className="text-slate-700 tabular-nums">{formatFileSize(f.file.size)}</span>
            {onRemove && !busy && (
              <Button variant="ghost" className="px-2!" aria-label={`Remove ${f.file.name}`} onClick={() => onRemove(f.key)}>
                <Icon icon={X} className="size-4" />
              </Button>
            )}
            {busy && f.controller && f.percent !== null && f.percent < 100 && (
              <Button variant="ghost" className="px-2!" onClick={() => f.controller?.abort()}>
                Cancel
              </Button>
            )}
          </div>
          {f.problem && <p className="text-red-700">{f.problem}</p>}
          {f.percent !== null && <ProgressBar value={f.percent} label={`Uploading ${f.file.name}`} />}
          {f.error && <p className="text-red-700">{f.error}</p>}
        </li>
      ))}
    </ul>
  );
}
