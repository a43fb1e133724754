import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { useWizardDiscount, useWizardForm, useWizardSubmission } from '../hooks/wizard-contexts';

/** SPEC §4 "Discount" and §8 messages; the applying itself is the wizard's (hooks/use-discount-apply). */
function DiscountField({ focusOnShow }: { focusOnShow: boolean }) {
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

  const inputRef = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusOnShow) inputRef.current?.focus();
  }, [focusOnShow]);

  const message = discountBlocked ?? notice?.text;
  const tone = discountBlocked ? 'error' : notice?.tone;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        Discount code
      </label>
      <div className="flex gap-2">
        <input
          ref={inputRef}
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
          className={`text-sm ${tone === 'error' ? 'text-red-700' : tone === 'success' ? 'text-green-800' : 'text-slate-700'}`}
        >
          {message}
        </p>
      )}
    </div>
  );
}

/**
 * The discount code in the price summary (issue 27), behind "Have a code?": most customers have none, and
 * the field no longer opens checkout. It stays open once a code is applied, refused or being typed.
 */
export function DiscountDisclosure() {
  const { discount, notice } = useWizardDiscount();
  const [opened, setOpened] = useState(false);
  if (!opened && discount === null && notice === null) {
    return (
      <button
        type="button"
        aria-expanded={false}
        onClick={() => setOpened(true)}
        className="self-start text-sm font-medium text-primary underline underline-offset-2 hover:no-underline"
      >
        Have a code?
      </button>
    );
  }
  return <DiscountField focusOnShow={opened} />;
}
