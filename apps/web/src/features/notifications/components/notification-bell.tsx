import { lazy, Suspense, useId, useRef, useState } from 'react';
import { Bell } from 'lucide';
import type { NotificationItem } from '@app/domain/notification';
import { Icon } from '@/components/ui/icon';
import { useNotifications } from '../api/notifications';
import type { BellSide } from '@/lib/notifications';

// ADR 0102: the panel (Radix Popover and its positioning) loads when the bell is first opened; the page draws
// the bell without it (prefetched with the page's later code once the page is drawn).
const NotificationPanel = lazy(() => import('./notification-panel'));

/**
 * ADR 0088: the bell in the header: the unread count (live over the chat socket, events 20 and 21), the
 * newest notifications grouped by order, "Mark all read"; an item opens its tab of the order and is read.
 * `staffLink` maps an item to the staff console's page of the order.
 */
export function NotificationBell({ side, staffLink }: { side: BellSide; staffLink?: (item: NotificationItem) => string | null }) {
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const bell = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const list = useNotifications(side);
  const unread = list.data?.unread ?? 0;
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <>
      <button
        ref={bell}
        type="button"
        // What Radix's popover trigger says of itself.
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        data-state={open ? 'open' : 'closed'}
        onClick={() => {
          setOpened(true);
          setOpen(!open);
        }}
        className="relative inline-flex size-10 items-center justify-center rounded-md text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700"
        aria-label={label}
        data-testid="notification-bell"
      >
        <Icon icon={Bell} className="size-5" />
        {unread > 0 && (
          <span
            className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-semibold text-white"
            data-testid="notification-count"
            aria-hidden="true"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </button>
      {opened && (
        <Suspense fallback={null}>
          <NotificationPanel side={side} staffLink={staffLink} open={open} setOpen={setOpen} bell={bell} id={panelId} />
        </Suspense>
      )}
    </>
  );
}
