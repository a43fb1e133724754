import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { OrderDetail } from '@app/domain/order';
import type { SiteSettings } from '@app/domain/settings';
import { server } from '@/testing/msw-server';
import { orderDetailFixture, settingsFixture, signIn } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { leavePageFor } from '../lib/leave-page';

vi.mock('../lib/leave-page', () => ({ leavePageFor: vi.fn() }));

/**
 * ADR 0086: the order page's "Upgrade order" (the orders feature) paid through this feature's one chooser,
 * composed by the route: the preview is the server's, the redirect goes to the upgrade's checkout path.
 */
const HASH = '0123456789abcdef0123456789abcdef';
const PAID = { status: 2, orderStatus: { id: 2, name: 'Paid' } } as const;
const quote = {
  difference: 25,
  currentPrice: 90,
  newPrice: 115,
  pages: 6,
  urgency: 240,
  deadline: '2030-01-10T12:00:00.000Z',
  extras: { premiumWriter: true, extraQualityCheck: false, onePageSummary: false, originalityReport: true },
};

const open = async (order: Partial<OrderDetail>, search = '') => {
  server.use(
    http.get('/api/en/sites/settings', () =>
      HttpResponse.json({
        ...settingsFixture,
        multipayment: true,
        payments_rules: { '1': { default: ['paycore', 'paypal', 'fondy', 'paymentwall'] } },
      } satisfies SiteSettings),
    ),
    http.get('/api/en/orders/42', () => HttpResponse.json(orderDetailFixture({ id: 42, finalPrice: 90, ...order }))),
  );
  signIn();
  window.localStorage.setItem('hashDevice', HASH);
  const app = renderApp(`/orderinfo/42/details${search}`);
  await screen.findByRole('tab', { name: 'Files' }, { timeout: 10_000 });
  return app;
};

beforeEach(() => vi.mocked(leavePageFor).mockClear());

describe('upgrading a paid order (ADR 0086)', { timeout: 20_000 }, () => {
  it('previews the server’s difference, makes the upgrade, and pays it through the chooser on the upgrade’s checkout path', async () => {
    const previews: unknown[] = [];
    let created: unknown = null;
    server.use(
      http.put('/api/en/orders/42/upgrade/calcs', async ({ request }) => {
        previews.push(await request.json());
        return HttpResponse.json(quote);
      }),
      http.post('/api/en/orders/42/upgrade', async ({ request }) => {
        created = await request.json();
        return HttpResponse.json({ ...quote, upgradeId: 'upg-0123456789abcdefghij' });
      }),
    );
    const { user } = await open(PAID);
    const panel = screen.getByRole('region', { name: 'Upgrade order' });
    await user.click(within(panel).getByRole('button', { name: 'Upgrade order' }));
    // ADR 0101: the form's code loads when it is opened; its first field then takes the focus.
    const form = await within(panel).findByRole('form', { name: 'Upgrade order' });
    await waitFor(() => expect(within(form).getByLabelText('Pages (now 4)')).toHaveFocus());
    const pages = within(form).getByLabelText('Pages (now 4)');
    expect(pages).toHaveFocus();
    // The extras already on (premium writer, originality report) are not offered again.
    expect(within(form).queryByRole('checkbox', { name: 'Premium writer' })).not.toBeInTheDocument();
    expect(await within(form).findByRole('option', { name: '2 days' })).toBeInTheDocument();
    expect(within(form).queryByRole('option', { name: '10 days' })).not.toBeInTheDocument();
    await user.clear(pages);
    await user.type(pages, '6');
    const preview = within(form).getByRole('status');
    expect(await within(preview).findByText('$25.00')).toBeInTheDocument();
    expect(preview).toHaveTextContent('$115.00');
    expect(previews.at(-1)).toEqual({ pages: 6, extras: [] });

    await user.click(within(form).getByRole('button', { name: 'Continue to payment' }));
    expect(created).toEqual({ pages: 6, extras: [] });
    await user.click(await within(form).findByRole('button', { name: 'Pay $25.00 for the upgrade' }));
    const chooser = await screen.findByRole('dialog', { name: 'Choose a payment method' });
    expect(chooser).toHaveTextContent('$25.00');
    await user.click(within(chooser).getByRole('button', { name: 'Pay $25.00 with PayPal' }));
    expect(leavePageFor).toHaveBeenCalledWith(`/checkout/paypal/upgrade/upg-0123456789abcdefghij?hashDevice=${HASH}`);
  });

  it('shows the server’s refusal in the preview and makes nothing', async () => {
    server.use(
      http.put('/api/en/orders/42/upgrade/calcs', () =>
        HttpResponse.json({ message: 'An upgrade can only add pages: the order has 4', errors: { pages: ['x'] } }, { status: 422 }),
      ),
    );
    const { user } = await open(PAID);
    const panel = screen.getByRole('region', { name: 'Upgrade order' });
    await user.click(within(panel).getByRole('button', { name: 'Upgrade order' }));
    const pages = await within(panel).findByLabelText('Pages (now 4)');
    await user.clear(pages);
    await user.type(pages, '2');
    expect(await within(panel).findByText('An upgrade can only add pages: the order has 4')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Continue to payment' })).toBeDisabled();
  });

  it.each([
    ['unpaid', { status: 1, orderStatus: { id: 1, name: 'Unpaid' } }],
    ['completed', { status: 5, orderStatus: { id: 5, name: 'Completed' } }],
    ['on hold', { status: 9, orderStatus: { id: 9, name: 'Hold' } }],
  ] as const)('offers no upgrade on an %s order', async (_name, status) => {
    await open(status);
    expect(screen.queryByRole('region', { name: 'Upgrade order' })).not.toBeInTheDocument();
  });

  it('says how the upgrade’s payment went when the provider sends the customer back', async () => {
    await open(PAID, '?upgrade=success');
    expect(await screen.findByText('Upgrade paid')).toBeInTheDocument();
  });
});
