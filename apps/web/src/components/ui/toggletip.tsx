import { lazy, Suspense, useId, useRef, useState } from 'react';
import { CircleHelp } from 'lucide';
import { Icon } from './icon';

const ToggletipPopover = lazy(() => import('./toggletip-popover'));

/**
 * A toggletip (ADR 0043, 0091): the tip shows on click, Enter or Space and stays until the button is pressed
 * again, the focus leaves, or Escape is pressed (WCAG 1.4.13). The button is drawn with the first paint; the
 * Radix popover that places the tip inside the screen loads on the first hover, focus or press.
 */
export function Toggletip({ label, text }: { label: string; text: string }) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const load = () => setWanted(true);
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        aria-label={`About ${label}`}
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onPointerEnter={load}
        onFocus={load}
        onClick={(event) => {
          // Safari does not focus a clicked button; the focus must be here for Escape and blur to close.
          event.currentTarget.focus();
          setWanted(true);
          setOpen((v) => !v);
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') setOpen(false);
        }}
        className="inline-flex rounded-full p-0.5 text-slate-600 hover:text-slate-900"
      >
        <Icon icon={CircleHelp} className="size-4" />
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <ToggletipPopover id={id} text={text} open={open} onOpenChange={setOpen} anchor={buttonRef} />
        </Suspense>
      )}
    </>
  );
}
