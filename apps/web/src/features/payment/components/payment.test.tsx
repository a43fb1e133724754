import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { OrderDetail } from '@app/domain/order';
import type { SiteSettings } from '@app/domain/settings';
import { toast } from '@/components/ui/toast';
import { server } from '@/testing/msw-server';
import { orderDetailFixture, orderListItemFixture, settingsFixture, signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';
import { leavePageFor } from '../lib/leave-page';

vi.mock('../lib/leave-page', () => ({ leavePageFor: vi.fn() }));

const HASH = '0123456789abcdef0123456789abcdef';
const ALL_FOUR: SiteSettings['payments_rules'] = { '1': { default: ['paycore', 'paypal', 'fondy', 'paymentwall'] } };

const serveSettings = (change: Partial<SiteSettings>) =>
  server.use(http.get('/api/en/sites/settings', () => HttpResponse.json({ ...settingsFixture, ...change })));

const serveOrder = (overrides: Partial<OrderDetail> = {}) => {
  let order = orderDetailFixture({ id: 42, ...overrides });
  server.use(http.get('/api/en/orders/42', () => HttpResponse.json(order)));
  return { set: (change: Partial<OrderDetail>) => (order = { ...order, ...change }) };
};

const openOrder = async (search = '') => {
  signIn();
  window.localStorage.setItem('hashDevice', HASH);
  const app = renderApp(`/orderinfo/42/details${search}`);
  await screen.findByRole('tab', { name: 'Files' });
  return app;
};

beforeEach(() => vi.mocked(leavePageFor).mockClear());

describe('the payment method chooser (SPEC §4 "Payment flow")', { timeout: 20_000 }, () => {
  it('names every allowed provider with the price to 2 decimals when several are allowed and multipayment is on', async () => {
    serveSettings({ payments_rules: ALL_FOUR, multipayment: true });
    serveOrder({ finalPrice: 90 });
    const { user } = await openOrder();
    const dismissAll = vi.spyOn(toast, 'dismissAll');
    expect(dismissAll).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Pay $90.00' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a payment method' });
    // Issue 27: the sign-up's toasts are gone once the chooser opens.
    expect(dismissAll).toHaveBeenCalled();
    dismissAll.mockRestore();
    const methods = within(dialog).getAllByRole('button', { name: /^Pay \$90\.00 with/ });
    expect(methods.map((b) => b.textContent?.endsWith('$90.00'))).toEqual([true, true, true, true]);
    // Issue 27: each with its provider's mark and one line on what it takes.
    for (const [i, [name, line]] of [
      ['Card (paycore.io)', 'Card: Visa, Mastercard and others'],
      ['PayPal', 'PayPal balance or card'],
      ['Fondy', 'Card, Apple Pay or Google Pay'],
      ['Paymentwall', 'Card or a local payment method'],
    ].entries()) {
      expect(methods[i]).toHaveAccessibleName(`Pay $90.00 with ${name}`);
      expect(methods[i]).toHaveAccessibleDescription(line);
      expect(methods[i]?.querySelector('svg')).not.toBeNull();
    }
    expect(leavePageFor).not.toHaveBeenCalled();
  });

  it("says 'Please wait for redirect to payment system...' and leaves for the chosen provider with the device hash", async () => {
    serveSettings({ payments_rules: ALL_FOUR, multipayment: true });
    serveOrder();
    const { user } = await openOrder();
    await user.click(screen.getByRole('button', { name: 'Pay $90.00' }));
    await user.click(await screen.findByRole('button', { name: 'Pay $90.00 with PayPal' }));
    expect(leavePageFor).toHaveBeenCalledWith(`/pp/sdk/redirect?uid=uid-00000000000000042&hashDevice=${HASH}`);
    expect(await screen.findByText('Please wait for redirect to payment system...')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Choose a payment method' })).not.toBeInTheDocument();
  });

  it.each<[string, Partial<SiteSettings>, string]>([
    ['multipayment is off', { payments_rules: ALL_FOUR, multipayment: false }, '/checkout/paycoreio/order/uid-00000000000000042'],
    [
      'one system is allowed',
      { payments_rules: { '1': { default: ['fondy'] } }, multipayment: true },
      '/checkout/fondy/order/uid-00000000000000042',
    ],
  ])('goes straight to the first system with no chooser when %s', async (_name, settings, path) => {
    serveSettings(settings);
    serveOrder();
    const { user } = await openOrder();
    await user.click(screen.getByRole('button', { name: 'Pay $90.00' }));
    expect(leavePageFor).toHaveBeenCalledWith(`${path}?hashDevice=${HASH}`);
    expect(await screen.findByText('Please wait for redirect to payment system...')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('opens the chooser at once on ?pay=1 (the express checkout path) and takes the parameter away', async () => {
    serveSettings({ payments_rules: ALL_FOUR, multipayment: true });
    serveOrder();
    const { router } = await openOrder('?pay=1');
    expect(await screen.findByRole('dialog', { name: 'Choose a payment method' })).toBeInTheDocument();
    await waitFor(() => expect(currentUrl(router)).toBe('/orderinfo/42/details'));
  });

  it('offers Pay on the dashboard card of an unpaid order only', async () => {
    serveSettings({ payments_rules: ALL_FOUR, multipayment: true });
    server.use(
      http.get('/api/en/sites/categories/:category/orders', () =>
        HttpResponse.json({
          orders: [
            orderListItemFixture({ id: 7, status: 1, orderStatus: { id: 1, name: 'Unpaid' }, finalPrice: 12.5 }),
            orderListItemFixture({ id: 8, status: 2, orderStatus: { id: 2, name: 'Paid' } }),
          ],
          total: 2,
        }),
      ),
    );
    signIn();
    const { user } = renderApp('/dashboard');
    const pay = await screen.findByRole('button', { name: 'Pay $12.50 for order #7' });
    expect(screen.queryByRole('button', { name: /for order #8/ })).not.toBeInTheDocument();
    await user.click(pay);
    expect(await screen.findByRole('dialog', { name: 'Choose a payment method' })).toBeInTheDocument();
  });
});

describe('back from the provider (CONTRACT "Payments")', { timeout: 20_000 }, () => {
  it('confirms a successful payment until the status check says paid, then shows the order paid without a reload', async () => {
    const order = serveOrder();
    const answers = ['pending', 'paid'] as const;
    let asked = 0;
    server.use(
      http.get('/api/en/orders/42/payment', () => {
        const status = answers[Math.min(asked, answers.length - 1)] ?? 'paid';
        asked += 1;
        // The callback lands between the two checks: from then on the order reads paid.
        if (status === 'paid') order.set({ status: 2, orderStatus: { id: 2, name: 'Paid' } });
        return HttpResponse.json({ status, pending: status === 'pending' });
      }),
    );
    const { router } = await openOrder('?payment=success');
    expect(screen.getByText('Confirming your payment…')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
    expect(await screen.findByText('Thank you, your payment has been received', {}, { timeout: 6000 })).toBeInTheDocument();
    expect(asked).toBe(2);
    const status = screen.getByRole('region', { name: 'Status' });
    await waitFor(() => expect(within(status).getByText('Paid')).toBeInTheDocument());
    expect(screen.queryByText('Confirming your payment…')).not.toBeInTheDocument();
    await waitFor(() => expect(currentUrl(router)).toBe('/orderinfo/42/details'));
  });

  it('opens the payment error modal on ?payment=fail, with Contact Support and the alternative method', async () => {
    serveSettings({ payments_rules: ALL_FOUR, multipayment: true, email: 'help@example.com' });
    serveOrder({ pending: false });
    const { user, router } = await openOrder('?payment=fail');
    const modal = await screen.findByRole('dialog', { name: "Looks like there's been a problem with your payment for order #42" });
    // Issue 27: the order's support chat in place, not the mail program.
    expect(within(modal).getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', '/orderinfo/42/messages?panel=support');
    await user.click(within(modal).getByRole('button', { name: 'Choose alternative payment method' }));
    const chooser = await screen.findByRole('dialog', { name: 'Choose a payment method' });
    await user.click(within(chooser).getByRole('button', { name: 'Pay $90.00 with Fondy' }));
    expect(leavePageFor).toHaveBeenCalledWith(`/checkout/fondy/order/uid-00000000000000042?hashDevice=${HASH}`);
    await waitFor(() => expect(currentUrl(router)).toBe('/orderinfo/42/details'));
  });

  it.each([
    ['the order is pending', { multipayment: true }, { pending: true }],
    ['multipayment is off', { multipayment: false }, { pending: false }],
  ] as const)('offers no alternative method when %s', async (_name, settings, orderChange) => {
    serveSettings({ payments_rules: ALL_FOUR, ...settings });
    serveOrder(orderChange);
    const { user } = await openOrder('?payment=fail');
    const modal = await screen.findByRole('dialog', { name: /problem with your payment for order #42/ });
    expect(within(modal).getByRole('link', { name: 'Contact Support' })).toBeInTheDocument();
    expect(within(modal).queryByRole('button', { name: 'Choose alternative payment method' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('turns a confirmation into the error modal when the status check says declined', async () => {
    serveOrder();
    server.use(http.get('/api/en/orders/42/payment', () => HttpResponse.json({ status: 'declined', pending: false })));
    await openOrder('?payment=success');
    expect(await screen.findByRole('dialog', { name: /problem with your payment for order #42/ })).toBeInTheDocument();
    expect(screen.queryByText('Confirming your payment…')).not.toBeInTheDocument();
  });
});

describe('money the order page owes the customer an honest word about (ADR 0034, 0035)', { timeout: 20_000 }, () => {
  it('says so when a payment arrived that did not match the order price', async () => {
    serveOrder({ unappliedPayment: true });
    await openOrder();
    expect(screen.getByRole('alert')).toHaveTextContent(
      'We received a payment that did not match the order price; support will contact you.',
    );
  });

  it('shows nothing of the kind for an order without parked money', async () => {
    serveOrder();
    await openOrder();
    expect(screen.queryByText(/did not match the order price/)).not.toBeInTheDocument();
  });

  it('asks for exactly the difference a forced edit left due, through the usual checkout', async () => {
    serveSettings({ payments_rules: { '1': { default: ['fondy'] } }, multipayment: false });
    serveOrder({ status: 10, orderStatus: { id: 10, name: 'Modified' }, finalPrice: 120, amountDue: 30.5 });
    const { user } = await openOrder();
    expect(screen.getByText('Your changes add $30.50 to this order')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pay $30.50' }));
    expect(leavePageFor).toHaveBeenCalledWith(`/checkout/fondy/order/uid-00000000000000042?hashDevice=${HASH}`);
  });
});
