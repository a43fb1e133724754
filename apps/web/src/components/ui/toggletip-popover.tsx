import type { RefObject } from 'react';
import { Popover } from 'radix-ui';
import { landmarkOf } from '@/lib/landmark';

interface ToggletipPopoverProps {
  id: string;
  text: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  anchor: RefObject<HTMLButtonElement | null>;
}

/**
 * The open part of a toggletip (ADR 0091): a Radix popover anchored to the button, placed by Radix's
 * collision handling (flips and shifts to stay 8 px inside the viewport, never wider than it), so it cannot
 * widen a 390 px page. Loaded on the first hover, focus or press of a tip's button, not with the first paint.
 */
export default function ToggletipPopover({ id, text, open, onOpenChange, anchor }: ToggletipPopoverProps) {
  return (
    <Popover.Root open={open} onOpenChange={onOpenChange}>
      <Popover.Anchor virtualRef={anchor as RefObject<HTMLButtonElement>} />
      {/* Into the button's landmark: everything on the page stays inside one (axe "region"). */}
      <Popover.Portal container={landmarkOf(anchor.current)}>
        <Popover.Content
          id={id}
          // A toggletip is read, not operated: it names no dialog, the focus stays on the button.
          role="tooltip"
          side="bottom"
          align="start"
          sideOffset={6}
          collisionPadding={8}
          onOpenAutoFocus={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => event.preventDefault()}
          // The button toggles by itself; a press on it is not a press "outside".
          onInteractOutside={(event) => {
            if (anchor.current?.contains(event.target as Node)) event.preventDefault();
          }}
          className="z-50 w-56 max-w-[calc(100vw-1rem)] rounded-md bg-slate-900 px-3 py-2 text-xs font-normal text-white shadow-lg"
        >
          {text}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
