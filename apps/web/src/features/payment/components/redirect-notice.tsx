import { PAYMENT_MESSAGE } from '@app/domain/payment';
import { Spinner } from '@/components/ui/spinner';

/**
 * SPEC §4 and §8 "Success notices": 'Please wait for redirect to payment system...'. Drawn here, not as a
 * toast: the toasts load with the first one shown (ADR 0021), and the page may be gone by then.
 */
export function RedirectNotice({ show }: { show: boolean }) {
  if (!show) return null;
  return (
    <div
      role="status"
      className="fixed inset-x-0 bottom-4 z-[60] mx-auto flex w-fit max-w-[calc(100vw-2rem)] items-center gap-3 rounded-md bg-slate-900 px-4 py-3 text-sm font-medium text-white shadow-lg"
    >
      <Spinner className="size-4 shrink-0" />
      {PAYMENT_MESSAGE.redirecting}
    </div>
  );
}
