import { useId, useRef, useState } from 'react';
import { X } from 'lucide';
import { FileDropZone } from '@/components/ui/file-drop-zone';
import { Icon } from '@/components/ui/icon';
import { SITE_CATEGORY } from '@app/domain/settings/rules';
import { formatFileSize, ORDER_FILE_EXTENSIONS, validateOrderFile } from '@app/domain/files/rules';
import { normalizeTitle, ORDER_FORM_LIMITS, ORDER_FORM_MESSAGE, WRITERS_CHOICE_TITLE } from '@app/domain/order-form/rules';
import { inputClass } from '@/components/ui/input';
import { formatUsd } from '@app/domain/money';
import { usePreferredWriters } from '../api/catalogues';
import { useExtraPrices } from '../hooks/use-extra-prices';
import { useWizardFiles, useWizardFocus, useWizardForm, useWizardSubmission } from '../hooks/wizard-contexts';
import { Check } from './check';
import { describedBy, FieldError, InfoTip } from './controls';

export interface InstructionErrors {
  title?: string | undefined;
  details?: string | undefined;
  files?: string | undefined;
}

interface StepInstructionsProps {
  errors: InstructionErrors;
  /** validates one field on blur (SPEC §5 messages next to the field) */
  onBlurField: (field: 'title' | 'details') => void;
  titleWarning: string | null;
  setTitleWarning: (warning: string | null) => void;
}

let fileKey = 0;

function FilePicker({ error }: { error: string | undefined }) {
  const { files, setFiles, lostFileNames } = useWizardFiles();
  const { locked } = useWizardSubmission();
  const { fieldRef } = useWizardFocus();
  const id = useId();
  const [rejected, setRejected] = useState<string[]>([]);
  const lost = lostFileNames.filter((name) => !files.some((f) => f.name === name));
  // SPEC §5: each file picked or dropped is checked by the domain's rules, with their texts.
  const addFiles = (picked: File[]): number => {
    const problems: string[] = [];
    const accepted = picked.filter((file) => {
      const problem = validateOrderFile(file);
      if (problem) problems.push(`${file.name}: ${problem}`);
      return problem === null;
    });
    setRejected(problems);
    setFiles((current) => [
      ...current,
      ...accepted.map((file) => ({
        key: `local-${++fileKey}`,
        remote: false as const,
        file,
        name: file.name,
        size: file.size,
        progress: null,
      })),
    ]);
    return accepted.length;
  };
  return (
    <div className="flex flex-col gap-2">
      <span className="text-sm font-medium text-slate-800" id={`${id}-label`}>
        File(s)
      </span>
      <FileDropZone
        variant="panel"
        extensions={ORDER_FILE_EXTENSIONS}
        onFiles={addFiles}
        disabled={locked}
        inputLabel="Attach files"
        browseLabel="Attach files"
        hint="Up to 100MB each"
        buttonRef={fieldRef('files')}
        invalid={Boolean(error)}
        describedBy={describedBy(error && `${id}-error`, rejected.length > 0 && `${id}-rejected`)}
      />
      {lost.length > 0 && (
        <p className="text-sm text-amber-900">
          Files are not kept after the page reloads. Please attach your files again: {lost.join(', ')}
        </p>
      )}
      <div id={`${id}-rejected`} role="alert">
        {rejected.map((text) => (
          <p key={text} className="text-sm text-red-700">
            {text}
          </p>
        ))}
      </div>
      {files.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Attached files">
          {files.map((f) => (
            <li key={f.key} className="flex flex-col gap-1 rounded-md border border-slate-200 bg-white px-3 py-2 text-sm">
              <div className="flex items-center gap-2">
                <span className="min-w-0 flex-1 truncate">{f.name}</span>
                <span className="text-slate-600">{formatFileSize(f.size)}</span>
                <button
                  type="button"
                  disabled={locked}
                  aria-label={`Remove ${f.name}`}
                  className="rounded p-1 text-slate-600 hover:bg-slate-100 disabled:opacity-50"
                  onClick={() => setFiles((current) => current.filter((x) => x.key !== f.key))}
                >
                  <Icon icon={X} className="size-4" />
                </button>
              </div>
              {!f.remote && f.progress !== null && (
                <progress className="h-2 w-full accent-primary" max={100} value={f.progress} aria-label={`Uploading ${f.name}`}>
                  {f.progress}%
                </progress>
              )}
            </li>
          ))}
        </ul>
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

function PreferredWriters() {
  const { values, update, customer } = useWizardForm();
  const writers = usePreferredWriters(customer !== null);
  if (!customer || !writers.data || writers.data.length === 0) return null;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 text-sm font-medium text-slate-800">Preferred writers</legend>
      <div className="flex flex-wrap gap-3">
        {writers.data.map((writer) => (
          <Check
            key={writer.idWriter}
            label={`WR-${writer.idWriter}${writer.isPremium ? ' (Premium)' : ''}`}
            checked={values.preferredWriters.includes(writer.idWriter)}
            onChange={(on) =>
              update({
                preferredWriters: on
                  ? [...values.preferredWriters, writer.idWriter]
                  : values.preferredWriters.filter((idWriter) => idWriter !== writer.idWriter),
              })
            }
          />
        ))}
      </div>
      <Check
        label="Another writer may take the order if my preferred writers are busy"
        checked={values.anotherWriter}
        onChange={(anotherWriter) => update({ anotherWriter })}
      />
    </fieldset>
  );
}

/** Step 2 (SPEC §4: complete once title, details and files are valid), the writer and the extras. */
export function StepInstructions({ errors, onBlurField, titleWarning, setTitleWarning }: StepInstructionsProps) {
  const { rawValues, values, deps, update, siteCategory, settings } = useWizardForm();
  const { fieldRef } = useWizardFocus();
  const id = useId();
  const resume = siteCategory === SITE_CATEGORY.resume;
  const extraPrices = useExtraPrices(values, siteCategory);
  const plus = (cents: number | null) => (cents ? `+${formatUsd(cents)}` : undefined);
  // ADR 0042: leaving a field checks it only once it was changed; tabbing through an empty one says nothing.
  const changed = useRef(new Set<'title' | 'details'>());
  const titleField = {
    name: 'title',
    ref: fieldRef('title'),
    value: rawValues.title,
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      changed.current.add('title');
      setTitleWarning(null);
      update({ title: event.target.value });
    },
    onBlur: () => {
      if (!changed.current.has('title')) return;
      // SPEC §5: a title under 5 characters is sent as 'Writer's Choice' (toOrderBody); the field keeps
      // what was typed, with the warning, so nothing typed is lost.
      setTitleWarning(normalizeTitle(rawValues.title, siteCategory).warning);
      onBlurField('title');
    },
  };
  const detailsField = {
    name: 'details',
    ref: fieldRef('details'),
    value: rawValues.details,
    onChange: (event: React.ChangeEvent<HTMLTextAreaElement>) => {
      changed.current.add('details');
      update({ details: event.target.value });
    },
    onBlur: () => {
      if (changed.current.has('details')) onBlurField('details');
    },
  };
  return (
    <div className="flex flex-col gap-6">
      {!resume && (
        <div className="flex flex-col gap-1">
          <label htmlFor={`${id}-title`} className="text-sm font-medium text-slate-800">
            Title
          </label>
          <input
            id={`${id}-title`}
            className={inputClass}
            placeholder={WRITERS_CHOICE_TITLE}
            maxLength={ORDER_FORM_LIMITS.titleMax}
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={describedBy(errors.title && `${id}-title-error`, titleWarning && `${id}-title-warning`)}
            {...titleField}
          />
          <FieldError id={`${id}-title-error`} message={errors.title} />
          {titleWarning && (
            <p id={`${id}-title-warning`} className="text-sm text-amber-900">
              {titleWarning}
            </p>
          )}
        </div>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-details`} className="text-sm font-medium text-slate-800">
          Paper details
        </label>
        <textarea
          id={`${id}-details`}
          rows={6}
          className={inputClass}
          aria-invalid={errors.details ? true : undefined}
          aria-describedby={describedBy(errors.details && `${id}-details-error`)}
          {...detailsField}
        />
        <FieldError id={`${id}-details-error`} message={errors.details} />
      </div>
      <FilePicker error={errors.files} />
      <div className="flex flex-col gap-1">
        <label htmlFor={`${id}-credentials`} className="text-sm font-medium text-slate-800">
          Credentials (optional)
        </label>
        <input
          id={`${id}-credentials`}
          name="credentials"
          className={inputClass}
          value={rawValues.credentials}
          onChange={(event) => update({ credentials: event.target.value })}
        />
      </div>
      <fieldset className="flex flex-col gap-3">
        <legend className="mb-1 text-sm font-medium text-slate-800">Writer and extras</legend>
        <Check
          label="Premium writer"
          checked={values.premiumWriter}
          price={plus(extraPrices.premiumWriter)}
          onChange={(premiumWriter) => update({ premiumWriter })}
          tip={<InfoTip label="Premium writer" text={ORDER_FORM_MESSAGE.premiumWriterTooltip} />}
        />
        {settings.enableExtraQualityCheck && (
          <Check
            label="Extra quality check"
            checked={values.extraQualityCheck}
            disabled={deps.disabled.extraQualityCheck}
            note={deps.disabled.extraQualityCheck ? ORDER_FORM_MESSAGE.extraQualityCheckUnavailable : undefined}
            price={deps.disabled.extraQualityCheck ? undefined : plus(extraPrices.extraQualityCheck)}
            onChange={(extraQualityCheck) => update({ extraQualityCheck })}
          />
        )}
        <Check
          label="Originality report"
          checked={values.originalityReport}
          price={plus(extraPrices.originalityReport)}
          onChange={(originalityReport) => update({ originalityReport })}
        />
        {settings.enableOnePageSummary && (
          <Check
            label="One-page summary"
            checked={values.onePageSummary}
            disabled={deps.disabled.onePageSummary}
            note={deps.disabled.onePageSummary ? ORDER_FORM_MESSAGE.onePageSummaryUnavailable : undefined}
            price={deps.disabled.onePageSummary ? undefined : plus(extraPrices.onePageSummary)}
            onChange={(onePageSummary) => update({ onePageSummary })}
          />
        )}
      </fieldset>
      <PreferredWriters />
    </div>
  );
}
