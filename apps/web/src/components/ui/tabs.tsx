import { lazy, Suspense, useId, useRef, useState, type ReactNode } from 'react';
import { Tabs as RadixTabs } from 'radix-ui';

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
  /**
   * Kept mounted (hidden) once it has been opened, so coming back to it is instant instead of building it
   * again (issue 27: the messenger took a second to mount on every switch at a phone's speed).
   */
  keepMounted?: boolean;
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
  return <TabTip trigger={trigger} tooltipId={tooltipId} text={item.tooltip} />;
}

// ADR 0102: the tip's popover (Radix Popover and its positioning) loads when a tip is first shown.
const TabTipPopover = lazy(() => import('./tab-tip-popover'));

/**
 * A tip under a (possibly disabled) tab, on hover and focus (ADR 0091): a Radix popover anchored to the tab's
 * wrapper (a disabled button gets no pointer events, its wrapper does), placed inside the viewport by Radix's
 * collision handling so it never widens the page. An anchor, not Radix Tooltip's trigger: the trigger puts
 * ARIA attributes on the wrapper, which a tablist may not hold beside its tabs (axe aria-required-children).
 */
function TabTip({ trigger, tooltipId, text }: { trigger: ReactNode; tooltipId: string; text: string }) {
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLSpanElement>(null);
  return (
    <>
      <span
        ref={anchor}
        className="inline-flex min-w-0 has-disabled:cursor-not-allowed lg:shrink-0"
        onPointerEnter={() => setOpen(true)}
        onPointerLeave={() => setOpen(false)}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
      >
        {trigger}
        {/* The tab's description for assistive technology, always there (the tip is drawn only while
            open); hidden, so that the tablist holds tabs only. */}
        <span id={tooltipId} hidden>
          {text}
        </span>
      </span>
      {open && (
        <Suspense fallback={null}>
          <TabTipPopover anchor={anchor} text={text} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}

/** Radix tabs driven by the URL (the caller owns `value`): arrow keys move, the panel follows. */
export function Tabs<V extends string>({ label, value, onValueChange, items }: TabsProps<V>) {
  // The tabs opened so far (adjusted while rendering, React's pattern for state that follows a prop).
  const [opened, setOpened] = useState<ReadonlySet<V>>(() => new Set([value]));
  if (!opened.has(value)) setOpened(new Set([...opened, value]));
  return (
    <RadixTabs.Root value={value} onValueChange={(next) => onValueChange(next as V)} className="flex flex-col gap-4">
      <RadixTabs.List
        data-focus-inset
        aria-label={label}
        className="flex gap-1 overflow-x-auto border-b border-slate-300 lg:overflow-visible"
      >
        {items.map((item) => (
          <TabTrigger key={item.value} item={item} />
        ))}
      </RadixTabs.List>
      {items.map((item) => {
        const kept = item.keepMounted === true && opened.has(item.value);
        return (
          <RadixTabs.Content
            key={item.value}
            value={item.value}
            // Radix leaves a force-mounted panel in view: an inactive one is hidden here. Only then: a
            // `hidden` prop, even undefined, replaces Radix's own on the other panels.
            {...(kept ? { forceMount: true as const, hidden: item.value !== value } : {})}
          >
            {item.content}
          </RadixTabs.Content>
        );
      })}
    </RadixTabs.Root>
  );
}
