import { useState } from 'react';
import { Link } from 'wouter';
import { Popover } from 'radix-ui';
import { Bell } from 'lucide';
import type { NotificationItem } from '@app/domain/notification';
import { dateTimeFormat } from '@/lib/dates';
import { Icon } from '@/components/ui/icon';
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

/**
 * ADR 0088: the bell in the header: the unread count (live over the chat socket, events 20 and 21), the
 * newest notifications grouped by order, "Mark all read"; an item opens its tab of the order and is read.
 * `staffLink` maps an item to the staff console's page of the order.
 */
export function NotificationBell({ side, staffLink }: { side: BellSide; staffLink?: (item: NotificationItem) => string | null }) {
  const [open, setOpen] = useState(false);
  const list = useNotifications(side);
  const markRead = useMarkRead(side);
  const unread = list.data?.unread ?? 0;
  const items = list.data?.notifications ?? [];
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
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
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          collisionPadding={8}
          className="z-50 flex max-h-[min(32rem,80vh)] w-[min(24rem,calc(100vw-1rem))] flex-col rounded-lg border border-slate-200 bg-white shadow-lg"
          aria-label="Notifications"
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
