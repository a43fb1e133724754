import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { server } from '@/testing/msw-server';
import { currentUrl, renderApp } from '@/testing/render-app';

const openLogin = async () => {
  const app = renderApp('/login');
  await screen.findByRole('heading', { level: 1, name: 'Sign in' });
  return app;
};

describe('login form', () => {
  it('shows SPEC §5 messages under a changed field on blur, none under a field only tabbed through (ADR 0042)', async () => {
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByLabelText('Password'));
    await user.tab();

    const email = screen.getByLabelText('Email');
    expect(await screen.findByText('Invalid email address.')).toBeInTheDocument();
    expect(screen.queryByText('The "Password" field is mandatory.')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-describedby');
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('Invalid email address.');
  });

  it('shows both messages on submit of an empty form and calls nobody', async () => {
    const calls: string[] = [];
    server.use(
      http.post('/api/en/auth/jwt/sign_in', () => {
        calls.push('sign_in');
        return HttpResponse.json({});
      }),
    );
    const { user } = await openLogin();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Invalid email address.')).toBeInTheDocument();
    expect(screen.getByText('The "Password" field is mandatory.')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("shows the server's 400 message as an error alert", async () => {
    server.use(http.post('/api/en/auth/jwt/sign_in', () => HttpResponse.json({ message: 'Wrong email or password' }, { status: 400 })));
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'demo@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong email or password');
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('stores the tokens, sends the device hash and goes to /dashboard', async () => {
    let body: unknown;
    server.use(
      http.post('/api/en/auth/jwt/sign_in', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ accessToken: 'access-1', refreshToken: 'refresh-1' });
      }),
    );
    const { user, router } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'demo@example.com');
    await user.type(screen.getByLabelText('Password'), 'demo12345');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'All Orders' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/dashboard');
    expect(localStorage.getItem('refreshToken')).toBe('refresh-1');
    expect(body).toMatchObject({ email: 'demo@example.com', password: 'demo12345', hashDevice: expect.stringMatching(/^[0-9a-f]{32}$/) });
  });
});

describe('magic link request', () => {
  it("says 'An email is on its way!' with the address and the 12 hours", async () => {
    let sent = '';
    server.use(
      http.post('/api/magic_link', async ({ request }) => {
        sent = await request.text();
        return HttpResponse.json({ message: 'An email is on its way!' });
      }),
    );
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'demo@example.com');
    await user.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));

    const notice = await screen.findByRole('status');
    expect(notice).toHaveTextContent('An email is on its way!');
    expect(notice).toHaveTextContent('We sent an email to demo@example.com with a link to sign in. The link expires in 12 hours');
    expect(new URLSearchParams(sent).get('email')).toBe('demo@example.com');
  });

  it('answers a 404 with "Email doesn\'t exist on site"', async () => {
    server.use(http.post('/api/magic_link', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })));
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'nobody@example.com');
    await user.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));

    expect(await screen.findByRole('alert')).toHaveTextContent("Email doesn't exist on site");
  });

  it("warns 'An email field is mandatory.' for an invalid email without calling the server", async () => {
    const calls: string[] = [];
    server.use(
      http.post('/api/magic_link', () => {
        calls.push('magic');
        return HttpResponse.json({});
      }),
    );
    const { user } = await openLogin();
    await user.type(screen.getByLabelText('Email'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));

    await waitFor(() => expect(screen.getByText('An email field is mandatory.')).toBeInTheDocument());
    expect(calls).toEqual([]);
  });
});
