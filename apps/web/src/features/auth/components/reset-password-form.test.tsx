import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { server } from '@/testing/msw-server';
import { currentUrl, renderApp } from '@/testing/render-app';

describe('reset password page', () => {
  it('sets the new password, goes to /login and says it can be used', async () => {
    let sent: unknown;
    server.use(
      http.put('/api/en/auth/password/reset', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: 'Your password has been changed. You can sign in now.' });
      }),
    );
    const { user, router } = renderApp('/reset-password?token=t-1');
    await user.type(await screen.findByLabelText('New password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/login');
    const notifications = await screen.findByRole('region', { name: 'Notifications' });
    expect(await within(notifications).findByRole('status')).toHaveTextContent('Your password has been changed. You can sign in now.');
    expect(sent).toEqual({ token: 't-1', password: 'new-password-1' });
  });

  it("shows the server's message when the link is spent", async () => {
    server.use(
      http.put('/api/en/auth/password/reset', () => HttpResponse.json({ message: 'This link is invalid or has expired' }, { status: 400 })),
    );
    const { user } = renderApp('/reset-password?token=spent');
    await user.type(await screen.findByLabelText('New password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('This link is invalid or has expired');
  });

  it('asks for at least 8 characters before calling the server', async () => {
    const { user } = renderApp('/reset-password?token=t-1');
    await user.type(await screen.findByLabelText('New password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));

    expect(await screen.findByText('Password must be at least 8 characters')).toBeInTheDocument();
  });
});

describe('logout page', () => {
  it('says the customer is signed out and offers "Sign in"', async () => {
    renderApp('/logout');
    expect(await screen.findByText('You have been signed out')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });
});
