import { lazy, Suspense, useEffect, useState } from 'react';
import { MODAL_DELAY_MS } from '@app/domain/ui';
import type { DialogPanelProps } from './dialog-panel';

/** ADR 0102: the panel's code (Radix Dialog, its focus trap and scroll lock) is asked for when a dialog opens. */
const loadPanel = () => import('./dialog-panel');
const DialogPanel = lazy(loadPanel);

/** SPEC §2 "Modals appear after a 200 ms delay": true once `open` has held for the delay. */
const useDelayedOpen = (open: boolean): boolean => {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!open) return undefined;
    // The panel's code arrives during the delay (from the HTTP cache once the page has prefetched it).
    void loadPanel();
    const timer = window.setTimeout(() => setReady(true), MODAL_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      setReady(false);
    };
  }, [open]);
  return open && ready;
};

export interface DialogProps extends Omit<DialogPanelProps, 'visible'> {
  open: boolean;
}

/**
 * SPEC §2 modals: shown after the delay; Esc and a click outside close them; focus is trapped and returned
 * (Radix, in `dialog-panel.tsx`). Nothing is drawn, and no code asked for, until the first opening; the panel
 * then stays, closed, so that closing returns the focus as Radix does.
 */
export function Dialog({ open, ...panel }: DialogProps) {
  const visible = useDelayedOpen(open);
  const [opened, setOpened] = useState(false);
  if (visible && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <DialogPanel visible={visible} {...panel} />
    </Suspense>
  );
}
