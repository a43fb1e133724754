import { Toast } from 'radix-ui';
import { X } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { toast, useToastItems, type ToastTone } from './toast-store';

const TONE_CLASS: Record<ToastTone, string> = {
  success: 'border-l-green-700',
  error: 'border-l-red-700',
  info: 'border-l-primary',
};

const TOAST_DURATION_MS = 6000;

/**
 * UI contract "Toasts": Radix Toast; the viewport is a region labelled "Notifications" and each toast
 * holds a role="status" (inside its list item: a list item itself may not be a status, axe-core
 * "aria-allowed-role" and "list", ADR 0042). The text is left out of Radix's own announcer (data-radix-toast-announce-exclude)
 * because the live list already announces it; otherwise every message would be on the page twice.
 */
export function ToasterView() {
  const list = useToastItems();
  return (
    <Toast.Provider duration={TOAST_DURATION_MS} swipeDirection="right">
      {list.map((item) => (
        <Toast.Root
          key={item.id}
          onOpenChange={(open) => {
            if (!open) toast.dismiss(item.id);
          }}
          className={`flex items-start gap-3 rounded-md border border-l-4 border-slate-200 bg-white p-4 text-sm text-slate-900 shadow-lg ${TONE_CLASS[item.tone]}`}
        >
          <div role="status" className="flex-1">
            <Toast.Description data-radix-toast-announce-exclude="">{item.message}</Toast.Description>
          </div>
          <Toast.Close aria-label="Dismiss notification" className="rounded p-0.5 text-slate-600 hover:bg-slate-100">
            <Icon icon={X} className="size-4" />
          </Toast.Close>
        </Toast.Root>
      ))}
      <Toast.Viewport
        label="Notifications"
        aria-live="polite"
        className="fixed right-0 bottom-0 z-[60] m-0 flex w-full max-w-sm list-none flex-col gap-2 p-4 outline-none"
      />
    </Toast.Provider>
  );
}
