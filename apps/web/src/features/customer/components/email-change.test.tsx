import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { CUSTOMER_MESSAGE } from '@app/domain/customer';
import { server } from '@/testing/msw-server';
import { customerFixture, signIn } from '@/testing/fixtures';
import { expectNoAxeViolations } from '@/testing/axe';
import { currentUrl, renderApp } from '@/testing/render-app';

const SLOW = { timeout: 15_000 };

describe('the email change (issue 27, ADR 0097)', { timeout: 30_000 }, () => {
  it('asks the new address and the password, shows the server’s field errors, then says a link was sent; the email stays', async () => {
    signIn();
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/en/customers/customer/emails/change', async ({ request }) => {
        const body = (await request.json()) as { email: string; password?: string };
        bodies.push(body);
        if (body.email === 'taken@example.com')
          return HttpResponse.json(
            { message: CUSTOMER_MESSAGE.emailChangeTaken, errors: { email: [CUSTOMER_MESSAGE.emailChangeTaken] } },
            { status: 422 },
          );
        if (body.password !== 'secret-pass-1')
          return HttpResponse.json(
            { message: CUSTOMER_MESSAGE.emailChangeWrongPassword, errors: { password: [CUSTOMER_MESSAGE.emailChangeWrongPassword] } },
            { status: 400 },
          );
        return HttpResponse.json({ message: CUSTOMER_MESSAGE.emailChangeSent(body.email), email: body.email }, { status: 202 });
      }),
    );
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('button', { name: 'Change email' }, SLOW));
    const form = screen.getByRole('form', { name: 'Change your email' });
    const email = within(form).getByLabelText('New email');
    expect(email).toHaveFocus();
    await user.type(email, 'taken@example.com');
    await user.type(within(form).getByLabelText('Your password'), 'secret-pass-1');
    await user.click(within(form).getByRole('button', { name: 'Send the link' }));
    expect(await within(form).findByText(CUSTOMER_MESSAGE.emailChangeTaken)).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolations(form);

    await user.clear(email);
    await user.type(email, 'new@example.com');
    await user.clear(within(form).getByLabelText('Your password'));
    await user.type(within(form).getByLabelText('Your password'), 'wrong');
    await user.click(within(form).getByRole('button', { name: 'Send the link' }));
    expect(await within(form).findByText(CUSTOMER_MESSAGE.emailChangeWrongPassword)).toBeInTheDocument();

    await user.clear(within(form).getByLabelText('Your password'));
    await user.type(within(form).getByLabelText('Your password'), 'secret-pass-1');
    await user.click(within(form).getByRole('button', { name: 'Send the link' }));
    expect(await screen.findByTestId('email-change-sent')).toHaveTextContent(CUSTOMER_MESSAGE.emailChangeSent('new@example.com'));
    expect(bodies.at(-1)).toEqual({ email: 'new@example.com', password: 'secret-pass-1' });
    // Until the link is opened, the email is the old one.
    expect(screen.getByLabelText('Email')).toHaveValue('demo@example.com');
    await expectNoAxeViolations();
  });

  it('an account signing in by link only is not asked a password', async () => {
    signIn();
    server.use(http.get('/api/en/customers/customer', () => HttpResponse.json(customerFixture({ signInByLinkOnly: true }))));
    const { user } = renderApp('/profile');
    await user.click(await screen.findByRole('button', { name: 'Change email' }, SLOW));
    const form = screen.getByRole('form', { name: 'Change your email' });
    expect(within(form).queryByLabelText('Your password')).not.toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.getByRole('button', { name: 'Change email' })).toHaveFocus();
  });

  it('/profile?changeEmail= confirms once, says so, refetches the profile and cleans the address; a bad link says why', async () => {
    signIn();
    let changed = false;
    const tokens: unknown[] = [];
    server.use(
      http.get('/api/en/customers/customer', () => HttpResponse.json(customerFixture(changed ? { email: 'new@example.com' } : {}))),
      http.put('/api/en/customers/customer/emails/change/confirm', async ({ request }) => {
        const { token } = (await request.json()) as { token: string };
        tokens.push(token);
        if (token !== 'tok-1') return HttpResponse.json({ message: CUSTOMER_MESSAGE.emailChangeLinkInvalid }, { status: 400 });
        changed = true;
        return HttpResponse.json({
          ...customerFixture({ email: 'new@example.com' }),
          message: CUSTOMER_MESSAGE.emailChanged('new@example.com'),
        });
      }),
    );
    const { router, unmount } = renderApp('/profile?changeEmail=tok-1');
    expect(await screen.findByText(CUSTOMER_MESSAGE.emailChanged('new@example.com'), undefined, SLOW)).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('Email')).toHaveValue('new@example.com'));
    expect(currentUrl(router)).toBe('/profile');
    expect(tokens).toEqual(['tok-1']);
    unmount();
    renderApp('/profile?changeEmail=forged');
    expect(await screen.findByText(CUSTOMER_MESSAGE.emailChangeLinkInvalid, undefined, SLOW)).toBeInTheDocument();
  });
});
