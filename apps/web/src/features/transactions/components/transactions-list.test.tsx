import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { Transaction } from '@app/domain/transaction';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';

const transaction = (id: number, overrides: Partial<Transaction> = {}): Transaction => ({
  id,
  date: '2030-01-05T09:30:00.000Z',
  orderId: 100 + id,
  orderTitle: `Order title ${id}`,
  provider: 'fondy',
  amount: 42.5,
  type: 'payment',
  status: 'completed',
  ...overrides,
});

/** 40 transactions on the server, served 16 a page as asked; the queries asked are recorded. */
const serveTransactions = (total: number) => {
  const asked: string[] = [];
  const all = Array.from({ length: total }, (_, i) => transaction(total - i));
  server.use(
    http.get('/api/en/customers/transactions', ({ request }) => {
      const url = new URL(request.url);
      asked.push(url.search);
      const page = Number(url.searchParams.get('page'));
      const limit = Number(url.searchParams.get('limit'));
      return HttpResponse.json({ transactions: all.slice((page - 1) * limit, page * limit), total });
    }),
  );
  return asked;
};

describe('/transactions (SPEC §2, §9)', { timeout: 20_000 }, () => {
  it('lists 16 a page with date, linked order, provider, amount and status, and pages by number', async () => {
    const asked = serveTransactions(40);
    signIn();
    const { user, router } = renderApp('/transactions');
    const table = await screen.findByRole('table', { name: 'Your payments and refunds' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(16);
    const first = rows[0];
    if (!first) throw new Error('no first row');
    expect(within(first).getByRole('link', { name: /#140/ })).toHaveAttribute('href', '/orderinfo/140/details');
    expect(first).toHaveTextContent('Fondy');
    expect(first).toHaveTextContent('$42.50');
    expect(first).toHaveTextContent('Completed');
    expect(within(first).getByText(/2030/, { selector: 'time' })).toHaveAttribute('datetime', '2030-01-05T09:30:00.000Z');
    expect(asked).toEqual(['?page=1&limit=16']);
    expect(screen.getByText('Showing 1–16 of 40 transactions')).toBeInTheDocument();

    const pages = screen.getByRole('navigation', { name: 'Transaction pages' });
    expect(within(pages).getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
    await user.click(within(pages).getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(screen.getByText('Showing 33–40 of 40 transactions')).toBeInTheDocument());
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(9);
    expect(asked).toContain('?page=3&limit=16');
    expect(currentUrl(router)).toBe('/transactions?page=3');
  });

  it('shows a refund as a refund, with the money going back', async () => {
    server.use(
      http.get('/api/en/customers/transactions', () =>
        HttpResponse.json({ transactions: [transaction(2, { type: 'refund', amount: 20, provider: 'paypal' }), transaction(1)], total: 2 }),
      ),
    );
    signIn();
    renderApp('/transactions');
    const table = await screen.findByRole('table');
    const refund = within(table).getAllByRole('row')[1];
    if (!refund) throw new Error('no refund row');
    expect(refund).toHaveTextContent('Refund');
    expect(refund).toHaveTextContent('PayPal');
    expect(refund).toHaveTextContent('−$20.00');
    expect(screen.queryByRole('navigation', { name: 'Transaction pages' })).not.toBeInTheDocument();
  });

  it('marks a sandbox transaction "Sandbox" (ADR 0036) and only that one', async () => {
    server.use(
      http.get('/api/en/customers/transactions', () =>
        HttpResponse.json({ transactions: [transaction(2, { sandbox: true }), transaction(1, { sandbox: false })], total: 2 }),
      ),
    );
    signIn();
    renderApp('/transactions');
    const table = await screen.findByRole('table');
    const [, sandboxRow, realRow] = within(table).getAllByRole('row');
    if (!sandboxRow || !realRow) throw new Error('no rows');
    expect(within(sandboxRow).getByText('Sandbox')).toHaveAttribute('title', 'Sandbox payment: no money moved');
    expect(realRow).not.toHaveTextContent('Sandbox');
  });

  it('says so when there are no transactions yet', async () => {
    serveTransactions(0);
    signIn();
    renderApp('/transactions');
    expect(await screen.findByRole('heading', { name: 'You have no transactions yet' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it("says 'Something went wrong' when the list cannot be fetched", async () => {
    server.use(http.get('/api/en/customers/transactions', () => HttpResponse.json({ message: 'nope' }, { status: 500 })));
    signIn();
    renderApp('/transactions');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
  });
});
