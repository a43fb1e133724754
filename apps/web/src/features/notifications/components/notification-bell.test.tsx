import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { NotificationItem } from '@app/domain/notification';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';

const item = (id: number, orderId: number, overrides: Partial<NotificationItem> = {}): NotificationItem => ({
  id,
  type: 'delivered',
  orderId,
  title: `Your work for order #${orderId} is ready`,
  body: 'Review it.',
  link: `/orderinfo/${orderId}/details`,
  createdAt: '2030-01-05T09:30:00.000Z',
  readAt: null,
  ...overrides,
});

describe('the notification bell (ADR 0088)', { timeout: 20_000 }, () => {
  it('shows the unread count, groups by order, marks all read, and an item opens its tab of the order', async () => {
    const marked: unknown[] = [];
    let list = [
      item(3, 12),
      item(2, 11, { type: 'writer_assigned', title: 'A writer is working on order #11' }),
      item(1, 12, { readAt: '2030-01-05T10:00:00.000Z', title: 'Payment received for order #12' }),
    ];
    server.use(
      http.get('/api/en/customers/notifications', () =>
        HttpResponse.json({ notifications: list, total: list.length, unread: list.filter((n) => !n.readAt).length }),
      ),
      http.put('/api/en/customers/notifications/read', async ({ request }) => {
        const body = (await request.json()) as { ids?: number[]; all?: boolean };
        marked.push(body);
        list = list.map((n) => (body.all || body.ids?.includes(n.id) ? { ...n, readAt: '2030-01-06T00:00:00.000Z' } : n));
        return HttpResponse.json({ unread: list.filter((n) => !n.readAt).length });
      }),
    );
    signIn();
    const { user, router } = renderApp('/dashboard');
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    await user.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    const groups = within(panel).getAllByRole('region');
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['Order #12', 'Order #11']);
    expect(within(groups[0] as HTMLElement).getAllByRole('link')).toHaveLength(2);
    await user.click(within(panel).getByRole('button', { name: 'Mark all read' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Notifications' })).toBeInTheDocument());
    expect(marked).toEqual([{ all: true }]);

    await user.click(within(panel).getByRole('link', { name: /Payment received for order #12/ }));
    expect(currentUrl(router)).toContain('/orderinfo/12/details');
  });

  it('opens and closes from the bell itself, by mouse and keyboard, and gives the focus back to it (ADR 0102)', async () => {
    server.use(http.get('/api/en/customers/notifications', () => HttpResponse.json({ notifications: [item(3, 12)], total: 1, unread: 1 })));
    signIn();
    const { user } = renderApp('/dashboard');
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    expect(bell).toHaveAttribute('aria-expanded', 'false');
    expect(bell).toHaveAttribute('aria-haspopup', 'dialog');
    await user.click(bell);
    const panel = await screen.findByRole('dialog', { name: 'Notifications' });
    expect(bell).toHaveAttribute('aria-expanded', 'true');
    expect(bell).toHaveAttribute('aria-controls', panel.id);
    // A press on the bell while it is open closes it (not closed by the press outside, then opened again).
    await user.click(bell);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).not.toBeInTheDocument());
    expect(bell).toHaveAttribute('aria-expanded', 'false');

    bell.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('dialog', { name: 'Notifications' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notifications' })).not.toBeInTheDocument());
    expect(bell).toHaveFocus();
  });
});
