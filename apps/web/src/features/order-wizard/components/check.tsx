import { useId, type ReactNode } from 'react';

// A module of its own: only steps 2 and 3 (lazy) tick boxes, so it stays out of /order's first paint (ADR 0025).
interface CheckProps {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  tip?: ReactNode;
  /** why it is greyed out, or what it means; the box's description */
  note?: string | undefined;
  /** what ticking it adds to the price ("+$5.10"), said with the label */
  price?: string | undefined;
}

export function Check({ label, checked, onChange, disabled, tip, note, price }: CheckProps) {
  const id = useId();
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        aria-describedby={note ? `${id}-note` : undefined}
        onChange={(event) => onChange(event.target.checked)}
        className="mt-1 size-4 accent-primary"
      />
      <div className="flex flex-col">
        <span className="flex flex-wrap items-center gap-x-1">
          <label htmlFor={id} className={`text-sm ${disabled ? 'text-slate-600' : 'text-slate-800'}`}>
            {label}
            {price && (
              <>
                {' '}
                <span className="ml-1 font-medium text-slate-700 tabular-nums">{price}</span>
              </>
            )}
          </label>
          {tip}
        </span>
        {note && (
          <span id={`${id}-note`} className="text-xs text-slate-600">
            {note}
          </span>
        )}
      </div>
    </div>
  );
}
