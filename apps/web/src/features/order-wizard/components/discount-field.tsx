import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { DISCOUNT_MESSAGE, normalizeDiscountCode } from '@app/domain/discount/rules';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/input';
import { ApiError } from '@/lib/api-client';
import { applyDiscount } from '../api/account';
import { useWizard } from '../hooks/use-order-wizard';

type Notice = { tone: 'error' | 'success'; text: string } | null;

const failureText = (error: unknown): string => {
  if (error instanceof ApiError) return error.fieldErrors.code?.[0] ?? error.serverMessage ?? TRANSPORT_MESSAGE.somethingWentWrong;
  return TRANSPORT_MESSAGE.somethingWentWrong;
};

/** SPEC §4 "Discount" and §8 messages: apply; applying again while applied resets; failure resets. */
export function DiscountField({ autoApply }: { autoApply: boolean }) {
  const w = useWizard();
  const id = useId();
  const [code, setCode] = useState(w.values.discountCode);
  const [notice, setNotice] = useState<Notice>(null);
  const [busy, setBusy] = useState(false);
  const { setDiscount, update, discount, discountBlocked } = w;

  const apply = useCallback(async (raw: string, applied: string | null) => {
    const normalized = normalizeDiscountCode(raw);
    setDiscount(null);
    update({ discountCode: '' });
    setNotice(null);
    // SPEC §4: apply clicked again while the same code is applied resets it.
    if (applied !== null && applied === normalized) return;
    if (normalized === '') {
      setNotice({ tone: 'error', text: DISCOUNT_MESSAGE.empty });
      return;
    }
    setBusy(true);
    try {
      const found = await applyDiscount(normalized);
      setDiscount({ code: found.code, percent: found.percent, amount: found.amount, isTopWriterDiscount: found.isTopWriterDiscount });
      update({ discountCode: found.code });
      setNotice({ tone: 'success', text: DISCOUNT_MESSAGE.applied });
    } catch (error) {
      setNotice({ tone: 'error', text: failureText(error) });
    } finally {
      setBusy(false);
    }
  }, [setDiscount, update]);

  // SPEC §2: ?discount= / ?discountCode= arrive applied.
  const autoApplied = useRef(false);
  const [initialCode] = useState(w.values.discountCode);
  const alreadyApplied = discount !== null;
  useEffect(() => {
    if (!autoApply || autoApplied.current || initialCode === '' || alreadyApplied) return;
    autoApplied.current = true;
    void apply(initialCode, null);
  }, [autoApply, initialCode, alreadyApplied, apply]);

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
        <Button variant="secondary" busy={busy} disabled={w.locked} onClick={() => void apply(code, discount?.code ?? null)}>
          Apply
        </Button>
      </div>
      {message && (
        <p id={`${id}-msg`} role={tone === 'error' ? 'alert' : 'status'} className={`text-sm ${tone === 'error' ? 'text-red-700' : 'text-green-800'}`}>
          {message}
        </p>
      )}
    </div>
  );
}
