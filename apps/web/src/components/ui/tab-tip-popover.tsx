import type { RefObject } from 'react';
import { Popover } from 'radix-ui';

/**
 * A tab's tip while it shows (`tabs.tsx` TabTip, ADR 0091), loaded the first time one is shown (ADR 0102):
 * a Radix popover anchored to the tab's wrapper, kept inside the viewport by its collision handling.
 */
export default function TabTipPopover({
  anchor,
  text,
  onClose,
}: {
  anchor: RefObject<HTMLElement | null>;
  text: string;
  onClose: () => void;
}) {
  return (
    <Popover.Root open onOpenChange={(open) => !open && onClose()}>
      <Popover.Anchor virtualRef={anchor as RefObject<HTMLElement>} />
      <Popover.Portal container={typeof document === 'undefined' ? undefined : (document.querySelector<HTMLElement>('main') ?? undefined)}>
        <Popover.Content
          role="tooltip"
          aria-hidden
          side="bottom"
          sideOffset={4}
          collisionPadding={8}
          onOpenAutoFocus={(event) => event.preventDefault()}
          onCloseAutoFocus={(event) => event.preventDefault()}
          className="z-50 max-w-[calc(100vw-1rem)] rounded bg-slate-900 px-2 py-1 text-xs text-white shadow-lg"
        >
          {text}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
