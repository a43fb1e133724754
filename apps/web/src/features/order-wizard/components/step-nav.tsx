import type { WizardStep } from '../hooks/use-wizard-step';

export const STEP_NAMES: Record<WizardStep, string> = { 1: 'Paper', 2: 'Instructions', 3: 'Checkout' };

/** The three steps (SPEC §4 "Order form steps"): a step opens only when the ones before it are complete. */
export function StepNav({
  step,
  reachable,
  disabled,
  onGoTo,
}: {
  step: WizardStep;
  /** steps 1, 2 and 3 */
  reachable: readonly [boolean, boolean, boolean];
  disabled: boolean;
  onGoTo: (step: WizardStep) => void;
}) {
  return (
    <nav aria-label="Order steps">
      <ol className="flex gap-2 text-sm">
        {([1, 2, 3] as const).map((n) => (
          <li key={n} className="flex-1">
            <button
              type="button"
              disabled={!reachable[n - 1] || disabled}
              aria-current={step === n ? 'step' : undefined}
              onClick={() => onGoTo(n)}
              className={`w-full rounded-md border px-2 py-2 text-left font-medium ${step === n ? 'border-primary bg-white text-slate-900 ring-2 ring-primary/40' : 'border-slate-300 bg-white text-slate-700'} disabled:text-slate-500`}
            >
              <span className="block text-xs text-slate-600">Step {n}</span>
              {STEP_NAMES[n]}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}
