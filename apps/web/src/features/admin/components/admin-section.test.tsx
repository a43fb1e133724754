import { http, HttpResponse, ws } from 'msw';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { calcsFixture, urgenciesFixture } from '@/testing/catalogue-fixtures';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const ADMIN_ME = { id: 9, role: 7, firstName: 'Robin', lastName: 'Hale', email: 'admin@example.com' };

const serveAdmin = ({ twoFactor }: { twoFactor: boolean }) => {
  const calls: { prices: unknown[]; codes: unknown[] } = { prices: [], codes: [] };
  server.use(
    // The console's chat session (ADR 0076) opens its socket whatever the page.
    ws.link('ws://localhost:3000/chat/staff/orders/messages').addEventListener('connection', () => undefined),
    http.get('/api/en/customers/customer', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
    http.get('/api/staff/me', () => HttpResponse.json(ADMIN_ME)),
    http.get('/api/staff/two-factor', () => HttpResponse.json({ enabled: twoFactor, required: true })),
    http.get('/api/staff/admin/prices', () => HttpResponse.json({ categories: [calcsFixture(1)], urgencies: urgenciesFixture })),
    http.put('/api/staff/admin/prices', async ({ request }) => {
      calls.prices.push(await request.json());
      return HttpResponse.json(calcsFixture(1));
    }),
    http.get('/api/staff/admin/discounts', () => HttpResponse.json({ discounts: [] })),
    http.post('/api/staff/admin/discounts', async ({ request }) => {
      calls.codes.push(await request.json());
      return HttpResponse.json({ message: 'This code already exists', errors: { code: ['This code already exists'] } }, { status: 409 });
    }),
  );
  return calls;
};

describe('the admin section (ADR 0090)', () => {
  it('shows the two-factor set-up instead of an admin page until it is on', async () => {
    serveAdmin({ twoFactor: false });
    signIn();
    renderApp('/staff/admin/prices');
    expect(await screen.findByRole('heading', { name: 'Turn on two-factor sign-in' })).toBeInTheDocument();
    expect(screen.getByText('Admins must use two-factor sign-in')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Publish prices' })).not.toBeInTheDocument();
  });

  it('previews the wizard price of the draft with the domain function, refuses a zero price, publishes the rows', async () => {
    const calls = serveAdmin({ twoFactor: true });
    signIn();
    const { user } = renderApp('/staff/admin/prices');
    const rate = await screen.findByLabelText('10 days (USD per page)');
    await user.selectOptions(screen.getByLabelText('Sample deadline'), '240');
    await user.clear(screen.getByLabelText('Sample pages'));
    await user.type(screen.getByLabelText('Sample pages'), '3');
    // $10.00 a page, 3 pages double spaced, no extras.
    expect(screen.getByTestId('preview-now')).toHaveTextContent('$30.00');
    await user.clear(rate);
    await user.type(rate, '12.50');
    expect(screen.getByTestId('preview-after')).toHaveTextContent('$37.50');
    expect(screen.getByTestId('preview-now')).toHaveTextContent('$30.00');

    await user.clear(rate);
    await user.type(rate, '0');
    expect(screen.getByText('A price must be more than 0')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Publish prices' }));
    expect(calls.prices).toHaveLength(0);

    await user.clear(rate);
    await user.type(rate, '12.50');
    await user.click(screen.getByRole('button', { name: 'Publish prices' }));
    await waitFor(() => expect(calls.prices).toHaveLength(1));
    const body = calls.prices[0] as {
      siteCategory: number;
      rates: { idWorkType: number; idLevel: number; urgency: number; pricePerPage: number }[];
    };
    expect(body.siteCategory).toBe(1);
    expect(body.rates).toContainEqual({ idWorkType: 1, idLevel: 1, urgency: 240, pricePerPage: 12.5 });
    expect(body.rates).toHaveLength(calcsFixture(1).rates.length);
  });

  it('refuses a percent over 100 on the spot and puts the server’s field error on its field', async () => {
    const calls = serveAdmin({ twoFactor: true });
    signIn();
    const { user } = renderApp('/staff/admin/discounts');
    await user.click(await screen.findByRole('button', { name: 'New code' }));
    const dialog = await screen.findByRole('dialog', { name: 'New discount code' });
    await user.type(within(dialog).getByLabelText('Code'), 'WELCOME10');
    await user.type(within(dialog).getByLabelText('Percent off'), '120');
    await user.click(within(dialog).getByRole('button', { name: 'Create code' }));
    expect(await within(dialog).findByText('A percent discount cannot be more than 100 %')).toBeInTheDocument();
    expect(calls.codes).toHaveLength(0);
    await user.clear(within(dialog).getByLabelText('Percent off'));
    await user.type(within(dialog).getByLabelText('Percent off'), '10');
    await user.click(within(dialog).getByRole('button', { name: 'Create code' }));
    expect(await within(dialog).findByText('This code already exists')).toBeInTheDocument();
    expect(calls.codes[0]).toMatchObject({ code: 'WELCOME10', percent: 10, amount: 0 });
  });
});
