import { lazy, Suspense, useEffect, useId, useSyncExternalStore, type Ref } from 'react';
import { levelListForCategory } from '@app/domain/routes';
import { SITE_CATEGORY, siteCategoryName } from '@app/domain/settings/rules';
import { WORK_TYPE } from '@app/domain/order/rules';
import { ORDER_FORM_MESSAGE, pagesMaxFor, showsVolumeWarning, wordsFor, ORDER_FORM_LIMITS } from '@app/domain/order-form/rules';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { useCategoryList, useSharedList, useUrgencies } from '../api/catalogues';
import { useWizardForm } from '../hooks/wizard-contexts';
import { FieldError, InfoTip, NumberStepper, RadioCards, selectClass } from './controls';

const LEVEL_LABEL: Record<string, string> = {
  academic_levels: 'Academic level',
  resume_levels: 'Career level',
  thesis_levels: 'Thesis level',
};

interface SelectProps {
  label: string;
  value: number | null;
  items: readonly { id: number; name: string; disabled?: boolean }[];
  onChange: (value: number) => void;
  placeholder?: string;
  error?: string | undefined;
  name: string;
  selectRef?: Ref<HTMLSelectElement> | undefined;
}

function Select({ label, value, items, onChange, placeholder, error, name, selectRef }: SelectProps) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        ref={selectRef}
        name={name}
        className={selectClass}
        value={value ?? ''}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        // The placeholder's empty value is no choice (never the id 0): the state keeps what was chosen.
        onChange={(event) => {
          if (event.target.value !== '') onChange(Number(event.target.value));
        }}
      >
        {value === null && <option value="">{placeholder ?? 'Choose…'}</option>}
        {items.map((item) => (
          <option key={item.id} value={item.id} disabled={item.disabled}>
            {item.name}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

// A deadline's date (issue 27) is drawn once hydrated: its code is not part of the first paint (ADR 0025).
const DueDate = lazy(() => import('./due-date'));
const subscribeNothing = () => () => {};
/** False in the server's render and while hydrating, true after: the client's clock and zone may be read. */
const useHydrated = (): boolean =>
  useSyncExternalStore(
    subscribeNothing,
    () => true,
    () => false,
  );

/** Step 1 (SPEC §4: complete once a subject is chosen): the service, the work and its deadline. */
export function StepPaper({ subjectError, subjectRef }: { subjectError: string | undefined; subjectRef: Ref<HTMLSelectElement> }) {
  const { values, deps, update, siteCategory, setSiteCategory, settings } = useWizardForm();
  const resume = siteCategory === SITE_CATEGORY.resume;
  const workTypes = useCategoryList(siteCategory, 'work_types');
  const paperTypes = useCategoryList(siteCategory, 'assignments');
  const subjects = useCategoryList(siteCategory, 'subjects');
  const formats = useCategoryList(siteCategory, 'paper_formats');
  const levelList = levelListForCategory(siteCategory);
  const levels = useSharedList(levelList);
  const resumeServices = useSharedList('resume_services', resume);
  const urgencies = useUrgencies(settings.idSite);
  const hydrated = useHydrated();
  const unit = deps.pagesLabel === 'slides' ? 'Slides' : 'Pages';
  const words = wordsFor(values.pages, values.spacing);

  // SPEC §4 "Level 4 or 5 disables urgency options 3 and 6": a chosen one moves to the nearest longer deadline.
  const urgencyList = urgencies.data;
  const disabledIds = deps.disabled.urgencyOptionIds;
  useEffect(() => {
    if (!urgencyList) return;
    const chosen = urgencyList.find((u) => u.hours === values.urgency);
    if (!chosen || !disabledIds.includes(chosen.id)) return;
    const longer = urgencyList.filter((u) => !disabledIds.includes(u.id) && u.hours > chosen.hours).sort((a, b) => a.hours - b.hours)[0];
    if (longer) update({ urgency: longer.hours });
  }, [urgencyList, disabledIds, values.urgency, update]);

  // ADR 0040 (room for late content, no layout shift): the step is drawn once its lists are here (with the page, usually), not
  // field by field as each arrives; until then its room is kept.
  const lists = [workTypes, resume ? resumeServices : paperTypes, subjects, levels, urgencies, ...(resume ? [] : [formats])];
  if (lists.some((list) => list.isPending)) {
    return (
      <div className="flex min-h-[36rem] items-center justify-center" aria-busy="true">
        <Spinner className="size-6" />
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-6">
      {settings.siteCategories.length > 1 && (
        <RadioCards
          legend="Service"
          name="siteCategory"
          value={siteCategory}
          onChange={setSiteCategory}
          options={settings.siteCategories.map((c) => ({ value: c, label: siteCategoryName(c) }))}
        />
      )}
      <RadioCards
        legend="Type of work"
        name="workType"
        value={values.workType}
        onChange={(workType) => update({ workType })}
        options={(workTypes.data ?? []).map((t) => ({
          value: t.id,
          label: t.name,
          extra: t.id === WORK_TYPE.editing ? <InfoTip label={t.name} text={ORDER_FORM_MESSAGE.editingTooltip} /> : undefined,
        }))}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {resume ? (
          <Select
            label="Resume service"
            name="resumeService"
            value={values.resumeService}
            items={resumeServices.data ?? []}
            onChange={(resumeService) => update({ resumeService })}
          />
        ) : (
          <Select
            label="Type of paper"
            name="paperType"
            value={values.paperType}
            items={(paperTypes.data ?? []).map((p) => ({ ...p, disabled: deps.disabled.spacing && p.id !== values.paperType }))}
            onChange={(paperType) => update({ paperType })}
          />
        )}
        <Select
          label="Subject"
          name="subject"
          value={values.subject}
          placeholder="Choose a subject"
          items={subjects.data ?? []}
          error={subjectError}
          selectRef={subjectRef}
          onChange={(subject) => update({ subject })}
        />
        <Select
          label={LEVEL_LABEL[levelList] ?? 'Level'}
          name="level"
          value={values.level}
          items={levels.data ?? []}
          onChange={(level) => update({ level })}
        />
        {!resume && (
          <Select
            label="Paper format"
            name="paperFormat"
            value={values.paperFormat}
            items={formats.data ?? []}
            onChange={(paperFormat) => update({ paperFormat })}
          />
        )}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <NumberStepper
          label={unit}
          value={values.pages}
          min={ORDER_FORM_LIMITS.pagesMin}
          max={pagesMaxFor(siteCategory)}
          onChange={(pages) => update({ pages })}
          hint={`${words} words`}
        />
        {!resume && (
          <NumberStepper
            label="Sources"
            value={values.sources}
            min={ORDER_FORM_LIMITS.sourcesMin}
            max={ORDER_FORM_LIMITS.sourcesMax}
            onChange={(sources) => update({ sources })}
          />
        )}
      </div>
      {!resume && (
        <RadioCards
          legend="Spacing"
          name="spacing"
          value={values.spacing}
          columns="grid-cols-2"
          onChange={(spacing) => update({ spacing: spacing === 1 ? 1 : 2 })}
          options={[
            { value: 2, label: 'Double', disabled: deps.disabled.spacing },
            {
              value: 1,
              label: 'Single',
              disabled: deps.disabled.spacing,
              note: deps.disabled.spacing ? <span className="text-xs">{ORDER_FORM_MESSAGE.spacingFixedForPresentation}</span> : undefined,
            },
          ]}
        />
      )}
      <RadioCards
        legend="Deadline"
        name="urgency"
        value={values.urgency}
        columns="grid-cols-2 sm:grid-cols-4"
        onChange={(urgency) => update({ urgency })}
        options={(urgencies.data ?? []).map((u) => {
          const unavailable = deps.disabled.urgencyOptionIds.includes(u.id);
          return {
            value: u.hours,
            label: u.name,
            disabled: unavailable,
            note: (
              <span className="min-h-4 text-xs text-slate-600">
                {unavailable
                  ? ORDER_FORM_MESSAGE.urgencyUnavailableAtLevel
                  : hydrated && (
                      <Suspense fallback={null}>
                        <DueDate hours={u.hours} />
                      </Suspense>
                    )}
              </span>
            ),
          };
        })}
      />
      {showsVolumeWarning(values, siteCategory) && (
        <Alert tone="info" title={ORDER_FORM_MESSAGE.volumeWarning}>
          {ORDER_FORM_MESSAGE.volumeAdvice}
        </Alert>
      )}
    </div>
  );
}
