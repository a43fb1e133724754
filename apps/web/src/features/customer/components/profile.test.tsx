import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { AUTH_MESSAGE } from '@app/domain/auth/rules';
import type { Customer } from '@app/domain/customer';
import { server } from '@/testing/msw-server';
import { customerFixture, signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';

const awaitingConfirmation = customerFixture({ status: { id: 3, name: 'Awaiting Confirmation' }, emailConfirmed: false });

const toastText = async () => {
  const notifications = await screen.findByRole('region', { name: 'Notifications' });
  return within(notifications).findByRole('status');
};

describe('profile settings', () => {
  it('shows the confirmation banner while the email awaits confirmation, and resends it', async () => {
    signIn();
    const resent: string[] = [];
    server.use(
      http.get('/api/en/customers/customer', () => HttpResponse.json(awaitingConfirmation)),
      http.post('/api/en/customers/customer/emails/resend', ({ request }) => {
        resent.push(request.headers.get('Authorization') ?? '');
        return HttpResponse.json({ message: 'Success' });
      }),
    );
    const { user } = renderApp('/profile');
    expect(await screen.findByRole('heading', { name: 'Please confirm your email' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend confirmation email' }));

    expect(await toastText()).toHaveTextContent('A confirmation email has been sent to demo@example.com');
    expect(resent).toEqual(['Bearer access-1']);
  });

  it('shows no banner for a confirmed account', async () => {
    signIn();
    renderApp('/profile');
    expect(await screen.findByRole('heading', { level: 1, name: 'Settings' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('demo@example.com');
    expect(screen.queryByText('Please confirm your email')).not.toBeInTheDocument();
  });

  it('confirms ?confirmEmail once, toasts, refetches the customer and cleans the URL', async () => {
    signIn();
    let confirmed = false;
    const tokens: unknown[] = [];
    server.use(
      http.get('/api/en/customers/customer', () => HttpResponse.json(confirmed ? customerFixture() : awaitingConfirmation)),
      http.put('/api/en/customers/customer/emails/confirm', async ({ request }) => {
        tokens.push(await request.json());
        confirmed = true;
        return HttpResponse.json(customerFixture());
      }),
    );
    const { router } = renderApp('/profile?confirmEmail=tok-1');

    expect(await toastText()).toHaveTextContent('Your email has been confirmed.');
    await waitFor(() => expect(screen.queryByText('Please confirm your email')).not.toBeInTheDocument());
    expect(currentUrl(router)).toBe('/profile');
    expect(tokens).toEqual([{ token: 'tok-1' }]);
  });

  it('says so when the confirmation removed a password set before the mailbox was proven (ADR 0038)', async () => {
    signIn();
    server.use(
      http.put('/api/en/customers/customer/emails/confirm', () =>
        HttpResponse.json({ ...customerFixture(), message: AUTH_MESSAGE.unprovenPasswordRemoved }),
      ),
    );
    renderApp('/profile?confirmEmail=tok-2');
    expect(await toastText()).toHaveTextContent(AUTH_MESSAGE.unprovenPasswordRemoved);
  });

  it('saves the personal information and says so', async () => {
    signIn();
    let sent: unknown;
    server.use(
      http.put('/api/en/customers/customer', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(customerFixture({ firstName: 'Alex' }));
      }),
    );
    const { user } = renderApp('/profile');
    const firstName = await screen.findByLabelText('First name');
    await user.clear(firstName);
    await user.type(firstName, 'Alex');
    await user.type(screen.getByLabelText('City'), 'Cork');
    await user.click(screen.getByLabelText('Send me news and special offers'));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));

    expect(await toastText()).toHaveTextContent('Your personal information has been successfully updated.');
    expect(sent).toEqual({
      firstName: 'Alex',
      lastName: 'Demo',
      phone: '15550100',
      country: 'us',
      state: '',
      city: 'Cork',
      address: '',
      zip: '',
      enabledNewsletters: true,
      enabledNightCalls: true,
      enabledFacebookMessenger: false,
    });
  });

  it('saves the billing details printed on the next receipts (ADR 0085)', async () => {
    signIn();
    let sent: unknown;
    server.use(
      http.put('/api/en/customers/customer/billing', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json(customerFixture({ billing: sent as Customer['billing'] }));
      }),
    );
    const { user } = renderApp('/profile');
    await user.type(await screen.findByLabelText('Company'), 'Demo Ltd');
    await user.type(screen.getByLabelText('Billing address'), '1 Main St{Enter}Cork');
    await user.click(screen.getByRole('button', { name: 'Save billing details' }));
    expect(await toastText()).toHaveTextContent('Your billing details have been saved.');
    expect(sent).toEqual({ name: '', company: 'Demo Ltd', taxId: '', address: '1 Main St\nCork' });
  });

  it("puts the server's refusal of a billing field on that field", async () => {
    signIn();
    server.use(
      http.put('/api/en/customers/customer/billing', () =>
        HttpResponse.json({ message: 'Invalid request', errors: { taxId: ['Use letters, digits and spaces only'] } }, { status: 422 }),
      ),
    );
    const { user } = renderApp('/profile');
    await user.type(await screen.findByLabelText('Tax ID (VAT number)'), 'IE 123');
    await user.click(screen.getByRole('button', { name: 'Save billing details' }));
    expect(await toastText()).toHaveTextContent('Something went wrong');
    expect(screen.getByLabelText('Tax ID (VAT number)')).toHaveAccessibleDescription('Use letters, digits and spaces only');
  });

  it('takes the phone through the searchable country list, formats it as typed, saves digits only, and reports a failed save', async () => {
    signIn();
    const bodies: unknown[] = [];
    server.use(
      http.put('/api/en/customers/customer', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: 'nope' }, { status: 500 });
      }),
    );
    const { user } = renderApp('/profile');
    const phone = await screen.findByLabelText('Phone');
    await user.click(screen.getByRole('button', { name: /^Country: / }));
    await user.type(await screen.findByRole('combobox', { name: 'Search countries' }), 'canad');
    await user.click(await screen.findByRole('option', { name: /Canada/ }));
    expect(screen.getByRole('button', { name: 'Country: Canada +1' })).toBeInTheDocument();
    await user.clear(phone);
    await user.type(phone, '4165550123');
    expect(phone).toHaveValue('(416) 555-0123');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await toastText()).toHaveTextContent('Something went wrong');
    expect(bodies).toEqual([expect.objectContaining({ phone: '14165550123' })]);
  }, 20_000);
});
