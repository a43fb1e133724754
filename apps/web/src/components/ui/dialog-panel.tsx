import { useRef, type ReactNode } from 'react';
import { Dialog as RadixDialog } from 'radix-ui';
import { X } from 'lucide';
import { Icon } from '@/components/ui/icon';

/** What `Dialog` (dialog.tsx) passes on: its props, with `visible` once SPEC §2's delay has passed. */
export interface DialogPanelProps {
  visible: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  /** A wider panel for dialogs with tabs (the privacy modal). */
  wide?: boolean;
  /** The widest panel, for a picture shown large (the chat's attachments, ADR 0095). */
  size?: 'lightbox';
  /** False: no close button, Esc and a click outside do nothing (a question that must be answered, ADR 0085). */
  dismissible?: boolean;
}

/**
 * The dialog itself (Radix: focus trapped and returned, Esc and a click outside close it), loaded the first
 * time a dialog opens, during SPEC §2's 200 ms delay (ADR 0102): no page draws its closed dialogs' code.
 */
export default function DialogPanel({ visible, onOpenChange, title, children, wide = false, size, dismissible = true }: DialogPanelProps) {
  const width = size === 'lightbox' ? 'max-w-5xl' : wide ? 'max-w-2xl' : 'max-w-md';
  // Radix returns focus to a Dialog.Trigger; these dialogs open from any control, so remember it.
  const returnFocusTo = useRef<HTMLElement | null>(null);
  return (
    <RadixDialog.Root open={visible} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <RadixDialog.Content
          aria-describedby={undefined}
          onOpenAutoFocus={() => {
            returnFocusTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          {...(dismissible
            ? {}
            : { onEscapeKeyDown: (event: Event) => event.preventDefault(), onInteractOutside: (event: Event) => event.preventDefault() })}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }}
          className={`fixed top-1/2 left-1/2 z-50 flex max-h-[90dvh] w-[calc(100vw-2rem)] ${width} -translate-x-1/2 -translate-y-1/2 flex-col gap-4 overflow-y-auto rounded-lg bg-white p-6 shadow-xl`}
        >
          <div className="flex items-start justify-between gap-4">
            <RadixDialog.Title className="min-w-0 text-lg font-semibold break-words">{title}</RadixDialog.Title>
            {dismissible && (
              <RadixDialog.Close className="rounded p-1 text-slate-600 hover:bg-slate-100" aria-label="Close">
                <Icon icon={X} className="size-5" />
              </RadixDialog.Close>
            )}
          </div>
          {children}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
