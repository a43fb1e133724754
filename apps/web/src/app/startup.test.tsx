import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { AUTH_MESSAGE } from '@app/domain/auth/rules';
import { server } from '@/testing/msw-server';
import { customerFixture, settingsFixture, signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';

/** Records the order in which the startup calls reach the server. */
const recordCalls = () => {
  const calls: string[] = [];
  server.events.on('request:start', ({ request }) => {
    calls.push(`${request.method} ${new URL(request.url).pathname}`);
  });
  return calls;
};

describe('startup', () => {
  it('shows the loading state, then asks for settings before the customer', async () => {
    signIn();
    const calls = recordCalls();
    renderApp('/dashboard');
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument();

    expect(await screen.findByRole('heading', { level: 1, name: 'All Orders' })).toBeInTheDocument();
    const settingsAt = calls.indexOf('GET /api/en/sites/settings');
    const customerAt = calls.indexOf('GET /api/en/customers/customer');
    expect(settingsAt).toBeGreaterThanOrEqual(0);
    expect(customerAt).toBeGreaterThan(settingsAt);
    server.events.removeAllListeners();
  });

  it('does not ask for the customer without a token', async () => {
    const calls = recordCalls();
    renderApp('/order');
    await screen.findByRole('heading', { level: 1, name: 'New Order' });
    expect(calls).not.toContain('GET /api/en/customers/customer');
    server.events.removeAllListeners();
  });

  it('signs in with ?magicLink, between settings and customer, and removes the parameter', async () => {
    const calls = recordCalls();
    server.use(
      http.get('/api/en/auth/magic_link/:token', ({ params }) =>
        params.token === 'magic-1'
          ? HttpResponse.json({ accessToken: 'access-m', refreshToken: 'refresh-m' })
          : HttpResponse.json({ message: 'Not found' }, { status: 404 }),
      ),
    );
    const { router } = renderApp('/dashboard?magicLink=magic-1');

    expect(await screen.findByRole('heading', { level: 1, name: 'All Orders' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/dashboard');
    expect(localStorage.getItem('refreshToken')).toBe('refresh-m');
    const order = ['GET /api/en/sites/settings', 'GET /api/en/auth/magic_link/magic-1', 'GET /api/en/customers/customer'].map((c) =>
      calls.indexOf(c),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order[0]).toBeGreaterThanOrEqual(0);
    expect(screen.queryByRole('status', { name: 'Loading' })).not.toBeInTheDocument();
    // Issue 27: the customer lands on their orders and is told the link signed them in.
    const notifications = await screen.findByRole('region', { name: 'Notifications' });
    expect(await within(notifications).findByRole('status')).toHaveTextContent("You're signed in");
    server.events.removeAllListeners();
  });

  it('toasts the notice of a magic link that removed a password set before the mailbox was proven (ADR 0038)', async () => {
    server.use(
      http.get('/api/en/auth/magic_link/:token', () =>
        HttpResponse.json({ accessToken: 'access-n', refreshToken: 'refresh-n', message: AUTH_MESSAGE.unprovenPasswordRemoved }),
      ),
    );
    const { router } = renderApp('/order?magicLink=notice-1');
    const notifications = await screen.findByRole('region', { name: 'Notifications' });
    expect(await within(notifications).findByRole('status')).toHaveTextContent(
      'The password chosen when this account was created was removed',
    );
    await waitFor(() => expect(currentUrl(router)).toBe('/order'));
    expect(localStorage.getItem('refreshToken')).toBe('refresh-n');
  });

  it("toasts 'This link is invalid or has expired' for a spent magic link", async () => {
    server.use(http.get('/api/en/auth/magic_link/:token', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })));
    const { router } = renderApp('/order?magicLink=spent');

    const notifications = await screen.findByRole('region', { name: 'Notifications' });
    expect(await within(notifications).findByRole('status')).toHaveTextContent('This link is invalid or has expired');
    await waitFor(() => expect(currentUrl(router)).toBe('/order'));
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it('sets the theme colour from settings as a CSS custom property', async () => {
    server.use(
      http.get('/api/en/sites/settings', () => HttpResponse.json({ ...settingsFixture, application_theme: { mainColor: '#7c3aed' } })),
    );
    renderApp('/order');
    await screen.findByRole('heading', { level: 1, name: 'New Order' });
    expect(document.documentElement.style.getPropertyValue('--theme-primary')).toBe('#7c3aed');
    // ADR 0094: and its dark theme's counterpart, lightened to read on the dark surface.
    expect(document.documentElement.style.getPropertyValue('--theme-primary-dark')).toBe('#b089f4');
  });

  it('ignores a theme colour that is not a plain hex colour', async () => {
    server.use(
      http.get('/api/en/sites/settings', () =>
        HttpResponse.json({ ...settingsFixture, application_theme: { mainColor: 'red;background:url(x)' } }),
      ),
    );
    renderApp('/order');
    await screen.findByRole('heading', { level: 1, name: 'New Order' });
    expect(document.documentElement.style.getPropertyValue('--theme-primary')).toBe('');
  });

  it('treats a staff account (customer 404) as signed out', async () => {
    signIn();
    server.use(http.get('/api/en/customers/customer', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })));
    const { router } = renderApp('/dashboard');
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/login');
  });

  it('offers a retry when the settings cannot be loaded', async () => {
    let failures = 1;
    server.use(
      http.get('/api/en/sites/settings', () =>
        failures-- > 0 ? HttpResponse.json({}, { status: 500 }) : HttpResponse.json(settingsFixture),
      ),
    );
    const { user } = renderApp('/order');
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'New Order' })).toBeInTheDocument();
    expect(customerFixture().email).toBe('demo@example.com');
  });
});
