import { useRef, type RefObject } from 'react';
import { Link } from 'wouter';
import { Popover } from 'radix-ui';
import type { NotificationItem } from '@app/domain/notification';
import { dateTimeFormat } from '@/lib/dates';
import { useMarkRead, useNotifications } from '../api/notifications';
import type { BellSide } from '@/lib/notifications';

// Made when first shown (lib/dates): a formatter made when this module is evaluated loaded the locale data there (ADR 0101).
const timeFormat = () => dateTimeFormat('en-US', { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** The list grouped by order, newest first (each group where its newest item falls). */
const groupByOrder = (items: readonly NotificationItem[]) => {
  const groups = new Map<string, NotificationItem[]>();
  for (const item of items) {
    const key = item.orderId === null ? 'account' : String(item.orderId);
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.entries()];
};

export interface NotificationPanelProps {
  side: BellSide;
  staffLink?: ((item: NotificationItem) => string | null) | undefined;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** the bell's button: the panel sits under it, and focus goes back to it */
  bell: RefObject<HTMLButtonElement | null>;
  id: string;
}

/**
 * The bell's panel (ADR 0088), loaded the first time the bell is opened (ADR 0102): a Radix popover anchored
 * to the bell's own button. What Radix's trigger would do is done here: a press on the bell is the bell's
 * (it toggles), and closing gives the focus back to the bell unless the customer went elsewhere.
 */
export default function NotificationPanel({ side, staffLink, open, setOpen, bell, id }: NotificationPanelProps) {
  const list = useNotifications(side);
  const markRead = useMarkRead(side);
  const unread = list.data?.unread ?? 0;
  const items = list.data?.notifications ?? [];
  const wentOutside = useRef(false);
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Anchor virtualRef={bell as RefObject<HTMLButtonElement>} />
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          collisionPadding={8}
          className="z-50 flex max-h-[min(32rem,80vh)] w-[min(24rem,calc(100vw-1rem))] flex-col rounded-lg border border-slate-200 bg-white shadow-lg"
          aria-label="Notifications"
          id={id}
          onInteractOutside={(event) => {
            if (event.target instanceof Node && bell.current?.contains(event.target)) event.preventDefault();
            else wentOutside.current = true;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (!wentOutside.current) bell.current?.focus();
            wentOutside.current = false;
          }}
        >
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-2">
            <h2 className="text-sm font-semibold text-slate-900">Notifications</h2>
            <button
              type="button"
              className="rounded px-2 py-1 text-sm font-medium text-blue-800 hover:bg-blue-50 disabled:text-slate-500"
              disabled={unread === 0 || markRead.isPending}
              onClick={() => markRead.mutate({ all: true })}
            >
              Mark all read
            </button>
          </div>
          <div data-focus-inset className="overflow-y-auto">
            {list.isPending ? (
              <p className="px-4 py-6 text-sm text-slate-600">Loading…</p>
            ) : items.length === 0 ? (
              <p className="px-4 py-6 text-sm text-slate-600">
                Nothing yet. We will tell you here when something happens with your orders.
              </p>
            ) : (
              groupByOrder(items).map(([key, group]) => (
                <section
                  key={key}
                  aria-label={key === 'account' ? 'Your account' : `Order #${key}`}
                  className="border-b border-slate-100 last:border-0"
                >
                  <h3 className="bg-slate-50 px-4 py-1 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                    {key === 'account' ? 'Your account' : `Order #${key}`}
                  </h3>
                  <ul>
                    {group.map((item) => {
                      const to = staffLink ? staffLink(item) : item.link;
                      const body = (
                        <>
                          <span className="flex items-start gap-2">
                            {item.readAt === null && (
                              <span className="mt-1.5 size-2 shrink-0 rounded-full bg-blue-700" aria-label="Unread" role="img" />
                            )}
                            <span className={item.readAt === null ? 'font-semibold text-slate-900' : 'text-slate-800'}>{item.title}</span>
                          </span>
                          <span className="line-clamp-2 text-sm text-slate-700">{item.body}</span>
                          <span className="text-xs text-slate-600">{timeFormat().format(new Date(item.createdAt))}</span>
                        </>
                      );
                      const onOpen = () => {
                        if (item.readAt === null) markRead.mutate({ ids: [item.id] });
                        setOpen(false);
                      };
                      return (
                        <li key={item.id}>
                          {to ? (
                            <Link
                              to={to}
                              onClick={onOpen}
                              className="flex flex-col gap-0.5 px-4 py-2 hover:bg-slate-50 focus-visible:bg-slate-50"
                              data-testid="notification-item"
                            >
                              {body}
                            </Link>
                          ) : (
                            <button
                              type="button"
                              onClick={onOpen}
                              className="flex w-full flex-col gap-0.5 px-4 py-2 text-left hover:bg-slate-50"
                              data-testid="notification-item"
                            >
                              {body}
                            </button>
                          )}
                        </li>
                      );
                    })}
                  </ul>
                </section>
              ))
            )}
          </div>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
