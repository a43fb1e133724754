import { useId, useState, type ReactNode } from 'react';

/** The wizard's "?" tips: one toggletip for the whole app (components/ui/toggletip, ADR 0091). */
export { Toggletip as InfoTip } from '@/components/ui/toggletip';

/** `aria-describedby` naming only the messages on screen (an id of nothing is an error for assistive technology). */
export const describedBy = (...ids: (string | false | null | undefined)[]): string | undefined =>
  ids.filter(Boolean).join(' ') || undefined;

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-red-700">
      {message}
    </p>
  );
}

export interface RadioOption {
  value: number;
  label: string;
  disabled?: boolean;
  extra?: ReactNode;
  /** a second line: what the choice means (a deadline's date) or why it is greyed out */
  note?: ReactNode;
}

interface RadioCardsProps {
  legend: string;
  name: string;
  value: number | null;
  options: readonly RadioOption[];
  onChange: (value: number) => void;
  disabled?: boolean;
  columns?: string;
}

/** A radio group as cards, in a fieldset with its legend (keyboard: arrows move within the group). */
export function RadioCards({ legend, name, value, options, onChange, disabled, columns = 'grid-cols-2 sm:grid-cols-4' }: RadioCardsProps) {
  const noteId = useId();
  return (
    <fieldset className="flex flex-col gap-2" disabled={disabled}>
      <legend className="mb-1 text-sm font-medium text-slate-800">{legend}</legend>
      <div className={`grid gap-2 ${columns}`}>
        {options.map((option) => (
          <label
            key={option.value}
            className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm has-checked:border-primary has-checked:ring-2 has-checked:ring-primary/40 has-disabled:cursor-not-allowed has-disabled:bg-slate-100 has-disabled:text-slate-500"
          >
            <input
              type="radio"
              name={name}
              value={option.value}
              checked={value === option.value}
              disabled={option.disabled}
              aria-describedby={option.note ? `${noteId}-${option.value}` : undefined}
              onChange={() => onChange(option.value)}
              className="accent-primary"
            />
            <span className="flex flex-1 flex-col">
              {option.label}
              {/* The radio's description, not part of its name ("2 days", not "2 days by Tue…"). */}
              {option.note && (
                <span id={`${noteId}-${option.value}`} aria-hidden="true">
                  {option.note}
                </span>
              )}
            </span>
            {option.extra}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export const selectClass =
  'block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 aria-invalid:border-red-700 disabled:bg-slate-100';

interface StepperProps {
  label: string;
  value: number;
  min: number;
  max: number;
  onChange: (value: number) => void;
  hint?: string;
}

/** A number field with − and + (SPEC §5: an empty value resets to the minimum on blur). */
export function NumberStepper({ label, value, min, max, onChange, hint }: StepperProps) {
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const clamp = (n: number) => Math.min(Math.max(Math.trunc(n), min), max);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="flex items-center gap-2">
        <button
          type="button"
          aria-label={`Fewer ${label.toLowerCase()}`}
          disabled={value <= min}
          onClick={() => onChange(clamp(value - 1))}
          className="size-10 rounded-md border border-slate-400 bg-white text-lg disabled:opacity-50"
        >
          −
        </button>
        <input
          id={id}
          inputMode="numeric"
          aria-describedby={hint ? `${id}-hint` : undefined}
          value={draft ?? String(value)}
          onChange={(event) => {
            const text = event.target.value.replace(/\D/g, '');
            setDraft(text);
            if (text !== '') onChange(clamp(Number(text)));
          }}
          onBlur={() => {
            if (draft === '') onChange(min);
            setDraft(null);
          }}
          className="w-20 rounded-md border border-slate-400 bg-white px-3 py-2 text-center text-base"
        />
        <button
          type="button"
          aria-label={`More ${label.toLowerCase()}`}
          disabled={value >= max}
          onClick={() => onChange(clamp(value + 1))}
          className="size-10 rounded-md border border-slate-400 bg-white text-lg disabled:opacity-50"
        >
          +
        </button>
        {hint && (
          <span id={`${id}-hint`} className="text-sm text-slate-600">
            {hint}
          </span>
        )}
      </div>
    </div>
  );
}
