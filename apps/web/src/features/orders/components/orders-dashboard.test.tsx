import { http, HttpResponse, delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { OrderListItem } from '@app/domain/order-list';
import { server } from '@/testing/msw-server';
import { orderListItemFixture, signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';

const LIST_PATH = '/api/en/sites/categories/:category/orders';

/** Serves `orders` as the list endpoint would (12 a page) and records every query it was asked. */
const serveList = (orders: OrderListItem[], total = orders.length) => {
  const queries: URLSearchParams[] = [];
  const paths: string[] = [];
  server.use(
    http.get(LIST_PATH, ({ request }) => {
      const url = new URL(request.url);
      queries.push(url.searchParams);
      paths.push(url.pathname);
      const hidden = url.searchParams.get('hidden') === '1';
      const visible = orders.filter((o) => (o.hidden === 'YES') === hidden);
      const page = Number(url.searchParams.get('page') ?? '1');
      return HttpResponse.json({ orders: visible.slice((page - 1) * 12, page * 12), total: Math.max(total, visible.length) });
    }),
  );
  return { queries, paths, last: () => Object.fromEntries(queries.at(-1) ?? []) };
};

const manyOrders = (n: number) => Array.from({ length: n }, (_, i) => orderListItemFixture({ id: 200 + i, title: `Order title ${i + 1}` }));

const openDashboard = async (url = '/dashboard') => {
  signIn();
  const app = renderApp(url);
  await screen.findByRole('heading', { level: 1, name: 'All Orders' });
  return app;
};

// Whole-app renders on a shared 2-core machine: more than the default 5 s per test.
describe('dashboard order list', { timeout: 20_000 }, () => {
  it("asks the first site category's list path with 12 a page and shows each card's facts", async () => {
    // ADR 0049: the cards' unread counts follow the chat's summary (the startup socket keeps it live).
    server.use(
      http.get('http://localhost:3000/chat/api/customers/orders/unread', () =>
        HttpResponse.json({ total: 2, orders: [{ orderId: 7, total: 2 }] }),
      ),
    );
    const list = serveList([
      orderListItemFixture({
        id: 7,
        title: 'Gatsby essay',
        status: 5,
        orderStatus: { id: 5, name: 'Completed' },
        unread: 2,
        finalPrice: 1234.5,
      }),
      orderListItemFixture({ id: 8, title: 'Quiet order', unread: 0 }),
    ]);
    await openDashboard();
    const card = (await screen.findByRole('article', { name: /Gatsby essay/ })) as HTMLElement;
    expect(list.paths[0]).toBe('/api/en/sites/categories/1/orders');
    expect(list.last()).toEqual({ limit: '12', page: '1' });
    expect(within(card).getByText('#7')).toBeInTheDocument();
    expect(within(card).getByText('Completed')).toHaveAttribute('data-status-style', 'completed');
    expect(within(card).getByText('$1,234.50')).toBeInTheDocument();
    expect(within(card).getByText('Writing · 3 pages')).toBeInTheDocument();
    expect(within(card).getByText(/unread messages/)).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: /Gatsby essay/ })).toHaveAttribute('href', '/orderinfo/7/details');
    const quiet = screen.getByRole('article', { name: /Quiet order/ });
    expect(within(quiet).queryByText(/unread/)).not.toBeInTheDocument();
    expect(screen.getByText('Showing 1–2 of 2 orders')).toBeInTheDocument();
  });

  it('puts each filter in the address bar and in the request, and resets the page to 1', async () => {
    const list = serveList(manyOrders(30));
    const { router, user } = await openDashboard('/dashboard?page=2');
    await screen.findByRole('article', { name: /Order title 13/ });
    expect(list.last().page).toBe('2');

    await user.selectOptions(screen.getByLabelText('Status'), 'Completed');
    await waitFor(() => expect(currentUrl(router)).toBe('/dashboard?status=5'));
    await waitFor(() => expect(list.last()).toEqual({ limit: '12', page: '1', status: '5' }));

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/dashboard?status=5&page=2'));

    fireEvent.change(screen.getByLabelText('Created from'), { target: { value: '2025-01-01' } });
    await waitFor(() => expect(currentUrl(router)).toBe('/dashboard?status=5&from=2025-01-01'));
    fireEvent.change(screen.getByLabelText('Created to'), { target: { value: '2025-01-31' } });
    await waitFor(() => expect(list.last()).toEqual({ limit: '12', page: '1', status: '5', dateFrom: '2025-01-01', dateTo: '2025-01-31' }));

    await user.click(screen.getByLabelText('Show hidden orders'));
    await waitFor(() => expect(list.last().hidden).toBe('1'));
    expect(currentUrl(router)).toBe('/dashboard?status=5&from=2025-01-01&to=2025-01-31&hidden=1');
  });

  it('searches after typing pauses, with one request for the whole word', async () => {
    const list = serveList(manyOrders(3));
    const { router, user } = await openDashboard('/dashboard?page=3');
    await waitFor(() => expect(list.queries.length).toBeGreaterThan(0));
    const before = list.queries.length;
    await user.type(screen.getByLabelText('Search'), 'gatsby');
    await waitFor(() => expect(currentUrl(router)).toBe('/dashboard?q=gatsby'));
    await waitFor(() => expect(list.last()).toEqual({ limit: '12', page: '1', q: 'gatsby' }));
    expect(list.queries.slice(before).filter((q) => q.has('q'))).toHaveLength(1);
  });

  it('restores the filters from a shared link', async () => {
    const list = serveList([]);
    await openDashboard('/dashboard?status=3&q=essay&hidden=1');
    await waitFor(() => expect(list.last()).toEqual({ limit: '12', page: '1', q: 'essay', status: '3', hidden: '1' }));
    expect(screen.getByLabelText('Status')).toHaveValue('3');
    expect(screen.getByLabelText('Search')).toHaveValue('essay');
    expect(screen.getByLabelText('Show hidden orders')).toBeChecked();
    expect(await screen.findByRole('heading', { name: 'No orders match these filters' })).toBeInTheDocument();
  });

  it('offers page numbers and asks for the page chosen', async () => {
    const list = serveList(manyOrders(30));
    const { router, user } = await openDashboard();
    await screen.findByRole('article', { name: /Order title 1$/ });
    const pages = screen.getByRole('navigation', { name: 'Order pages' });
    expect(
      within(pages)
        .getAllByRole('button', { name: /^Page/ })
        .map((b) => b.textContent),
    ).toEqual(['1', '2', '3']);
    await user.click(within(pages).getByRole('button', { name: 'Page 3' }));
    await screen.findByRole('article', { name: /Order title 25/ });
    expect(currentUrl(router)).toBe('/dashboard?page=3');
    expect(list.last().page).toBe('3');
    expect(within(pages).getByRole('button', { name: 'Page 3' })).toHaveAttribute('aria-current', 'page');
  });

  it('switches between grid and list and remembers the choice', async () => {
    serveList(manyOrders(2));
    const { user, unmount } = await openDashboard();
    await screen.findByRole('article', { name: /Order title 1$/ });
    expect(screen.getByRole('button', { name: 'Grid' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('list', { name: 'Orders' }).className).toContain('grid');

    await user.click(screen.getByRole('button', { name: 'List' }));
    expect(screen.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('list', { name: 'Orders' }).className).not.toContain('grid');
    unmount();

    renderApp('/dashboard');
    await screen.findByRole('article', { name: /Order title 1$/ });
    expect(screen.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('hides an order at once, and refreshes the navigation count', async () => {
    const orders = manyOrders(2);
    serveList(orders);
    let countCalls = 0;
    server.use(
      http.get('/api/en/orders/count', () => {
        countCalls += 1;
        return HttpResponse.json({ total: 2 - (countCalls > 1 ? 1 : 0), byStatus: {} });
      }),
      http.put('/api/en/orders/:id/hide', async ({ params }) => {
        await delay(300);
        const order = orders.find((o) => o.id === Number(params.id));
        if (order) order.hidden = 'YES';
        return HttpResponse.json({});
      }),
    );
    const { user } = await openDashboard();
    await screen.findByRole('article', { name: /Order title 1$/ });
    await user.click(screen.getByRole('button', { name: 'Hide order #200' }));
    // Gone before the server has answered (the handler waits 300 ms).
    expect(screen.queryByRole('article', { name: /Order title 1$/ })).not.toBeInTheDocument();
    expect(screen.getByRole('article', { name: /Order title 2/ })).toBeInTheDocument();
    await waitFor(() => expect(countCalls).toBeGreaterThan(1));
  });

  it('puts a hidden order back and says so when hiding fails', async () => {
    serveList(manyOrders(2));
    server.use(
      http.put('/api/en/orders/:id/hide', async () => {
        await delay(200);
        return HttpResponse.json({ message: 'Not found' }, { status: 404 });
      }),
    );
    const { user } = await openDashboard();
    await screen.findByRole('article', { name: /Order title 1$/ });
    await user.click(screen.getByRole('button', { name: 'Hide order #200' }));
    expect(screen.queryByRole('article', { name: /Order title 1$/ })).not.toBeInTheDocument();
    expect(await screen.findByRole('article', { name: /Order title 1$/ })).toBeInTheDocument();
    const notifications = await screen.findByRole('region', { name: 'Notifications' });
    expect(await within(notifications).findByText('Not found')).toBeInTheDocument();
  });

  it('unhides from the hidden list', async () => {
    const orders = [orderListItemFixture({ id: 300, title: 'Hidden one', hidden: 'YES' })];
    serveList(orders);
    let unhidden = 0;
    server.use(
      http.put('/api/en/orders/300/unhide', () => {
        unhidden += 1;
        orders[0] = { ...orders[0]!, hidden: 'no' };
        return HttpResponse.json({});
      }),
    );
    const { user } = await openDashboard('/dashboard?hidden=1');
    await user.click(await screen.findByRole('button', { name: 'Unhide order #300' }));
    expect(screen.queryByRole('article', { name: /Hidden one/ })).not.toBeInTheDocument();
    expect(unhidden).toBe(1);
  });

  it('leads an empty account to New Order', async () => {
    serveList([]);
    await openDashboard();
    expect(await screen.findByRole('heading', { name: 'You have no orders yet' })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'New Order' })).toHaveAttribute('href', '/order');
  });

  it('says what SPEC says when the list cannot be fetched', async () => {
    server.use(http.get(LIST_PATH, () => HttpResponse.json({ message: 'boom' }, { status: 500 })));
    await openDashboard();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Something went wrong while fetching your order list. Please contact our support.',
    );
  });
});
