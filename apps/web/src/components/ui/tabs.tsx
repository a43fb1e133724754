import { useId, type ReactNode } from 'react';
import { Tabs as RadixTabs, Tooltip } from 'radix-ui';

export interface TabItem<V extends string> {
  value: V;
  label: string;
  content: ReactNode;
  /** a tab that cannot be opened now (SPEC §2: the revisions tab outside status 5) */
  disabled?: boolean;
  /** a hint shown on hover and focus and given to screen readers as the tab's description */
  tooltip?: string | undefined;
  /** a small mark beside the label (an unread count) */
  badge?: ReactNode;
}

interface TabsProps<V extends string> {
  label: string;
  value: V;
  onValueChange: (value: V) => void;
  items: readonly TabItem<V>[];
}

// Narrow (below lg): the tabs share the row and a long label wraps, so every tab stays in view (the list
// still scrolls if even that cannot fit, at 320 px); wide: one line each.
const triggerClass =
  '-mb-px min-w-0 inline-flex items-center justify-center gap-2 border-b-2 text-center border-transparent px-3 py-2 text-sm font-medium text-slate-700 hover:text-slate-900 data-[state=active]:border-primary data-[state=active]:text-slate-900 disabled:pointer-events-none disabled:text-slate-500 disabled:hover:text-slate-500 lg:shrink-0 lg:whitespace-nowrap lg:px-4';

function TabTrigger<V extends string>({ item }: { item: TabItem<V> }) {
  const tooltipId = useId();
  const trigger = (
    <RadixTabs.Trigger
      value={item.value}
      disabled={item.disabled}
      aria-describedby={item.tooltip ? tooltipId : undefined}
      className={triggerClass}
    >
      {item.label}
      {item.badge}
    </RadixTabs.Trigger>
  );
  if (!item.tooltip) return trigger;
  // A Radix tooltip on a wrapper (ADR 0091): a disabled button gets no pointer events, its wrapper still
  // does; the tip is placed inside the viewport by Radix's collision handling, so it never widens the page.
  return (
    <Tooltip.Provider delayDuration={150}>
      <Tooltip.Root>
        <Tooltip.Trigger asChild>
          <span className="inline-flex min-w-0 has-disabled:cursor-not-allowed lg:shrink-0">
            {trigger}
            {/* The tab's description for assistive technology, always there (the tip is drawn only while
                open). No role="tooltip": a tablist may hold tabs only (axe aria-required-children). */}
            <span id={tooltipId} className="sr-only">
              {item.tooltip}
            </span>
          </span>
        </Tooltip.Trigger>
        <Tooltip.Portal
          container={typeof document === 'undefined' ? undefined : (document.querySelector<HTMLElement>('main') ?? undefined)}
        >
          <Tooltip.Content
            side="bottom"
            sideOffset={4}
            collisionPadding={8}
            aria-hidden
            className="z-50 max-w-[calc(100vw-1rem)] rounded bg-slate-900 px-2 py-1 text-xs text-white shadow-lg"
          >
            {item.tooltip}
          </Tooltip.Content>
        </Tooltip.Portal>
      </Tooltip.Root>
    </Tooltip.Provider>
  );
}

/** Radix tabs driven by the URL (the caller owns `value`): arrow keys move, the panel follows. */
export function Tabs<V extends string>({ label, value, onValueChange, items }: TabsProps<V>) {
  return (
    <RadixTabs.Root value={value} onValueChange={(next) => onValueChange(next as V)} className="flex flex-col gap-4">
      <RadixTabs.List aria-label={label} className="flex gap-1 overflow-x-auto border-b border-slate-300 lg:overflow-visible">
        {items.map((item) => (
          <TabTrigger key={item.value} item={item} />
        ))}
      </RadixTabs.List>
      {items.map((item) => (
        <RadixTabs.Content key={item.value} value={item.value}>
          {item.content}
        </RadixTabs.Content>
      ))}
    </RadixTabs.Root>
  );
}
