import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { useWizardDiscount, useWizardForm, useWizardSubmission } from '../hooks/wizard-contexts';

/** SPEC §4 "Discount" and §8 messages; the applying itself is the wizard's (hooks/use-discount-apply). */
export function DiscountField() {
  const { discount, discountBlocked, apply, notice, busy } = useWizardDiscount();
  const { values } = useWizardForm();
  const { locked } = useWizardSubmission();
  const id = useId();
  const [code, setCode] = useState(discount?.code ?? values.discountCode);
  // A code applied by the wizard itself (?discount=, an order opened for editing) shows in the field.
  const appliedCode = discount?.code ?? null;
  const [seenCode, setSeenCode] = useState(appliedCode);
  if (appliedCode !== seenCode) {
    setSeenCode(appliedCode);
    if (appliedCode !== null) setCode(appliedCode);
  }

  const message = discountBlocked ?? notice?.text;
  const tone = discountBlocked ? 'error' : notice?.tone;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        Discount code
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          name="discountCode"
          className={inputClass}
          value={code}
          aria-invalid={tone === 'error' ? true : undefined}
          aria-describedby={message ? `${id}-msg` : undefined}
          onChange={(event) => setCode(event.target.value)}
        />
        <Button variant="secondary" busy={busy} disabled={locked} onClick={() => void apply(code, discount?.code ?? null)}>
          Apply
        </Button>
      </div>
      {message && (
        <p
          id={`${id}-msg`}
          role={tone === 'error' ? 'alert' : 'status'}
          className={`text-sm ${tone === 'error' ? 'text-red-700' : 'text-green-800'}`}
        >
          {message}
        </p>
      )}
    </div>
  );
}
