import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';

describe('route guard', () => {
  it.each(['/dashboard', '/transactions', '/profile', '/loyalty', '/orderinfo/12/details'])(
    'sends a visitor from %s to /login',
    async (url) => {
      const { router } = renderApp(url);
      expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
      expect(currentUrl(router)).toBe('/login');
    },
  );

  it('goes back to the wanted page after sign-in', async () => {
    server.use(http.post('/api/en/auth/jwt/sign_in', () => HttpResponse.json({ accessToken: 'access-1', refreshToken: 'refresh-1' })));
    const { router, user } = renderApp('/loyalty?tab=discount');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    await user.type(screen.getByLabelText('Email'), 'demo@example.com');
    await user.type(screen.getByLabelText('Password'), 'demo12345');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'My Bonuses' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/loyalty?tab=discount');
    // ADR 0098: the page's tabs are drawn once its answers are in (the heading before them).
    expect(await screen.findByRole('tab', { name: 'Discount' })).toHaveAttribute('aria-selected', 'true');
  });

  it('sends a signed-in customer from /login to /dashboard', async () => {
    signIn();
    const { router } = renderApp('/login');
    expect(await screen.findByRole('heading', { level: 1, name: 'All Orders' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/dashboard');
  });

  it('lets a visitor open /order without the side navigation', async () => {
    renderApp('/order');
    expect(await screen.findByRole('heading', { level: 1, name: 'New Order' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });
});

describe('/ (ADR 0041)', () => {
  it('opens the wizard for a visitor', async () => {
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'New Order' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/order');
  });

  it('opens the dashboard for a signed-in customer', async () => {
    signIn();
    const { router } = renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'All Orders' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/dashboard');
  });
});

describe('not found', () => {
  it('sends an unknown path to /404, whose link goes to All Orders', async () => {
    const { router } = renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/404');
    expect(screen.getByRole('link', { name: 'Go to All Orders' })).toHaveAttribute('href', '/dashboard');
  });
});

describe('shell', () => {
  it('shows the main navigation with icons and the order count', async () => {
    signIn();
    renderApp('/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const names = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(names).toEqual(['New Order', 'All Orders', 'Transactions', 'Settings', 'My Bonuses']);
    await waitFor(() => expect(within(nav).getByRole('link', { name: /All Orders/ })).toHaveTextContent('All Orders3'));
    expect(await screen.findByRole('heading', { name: 'You have no orders yet' })).toBeInTheDocument();
    expect(screen.getByRole('banner')).toHaveTextContent('Writing Service');
  });

  it('logs out: revokes the refresh token, clears both tokens and goes to /login', async () => {
    signIn('access-1', 'refresh-1');
    const revoked: string[] = [];
    server.use(
      http.post('/api/en/auth/jwt/logout', ({ request }) => {
        revoked.push(request.headers.get('Authorization') ?? '');
        return HttpResponse.json({});
      }),
    );
    const { router, user } = renderApp('/profile');
    await user.click(await screen.findByRole('button', { name: 'Log out' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/login');
    expect(revoked).toEqual(['Bearer refresh-1']);
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
  });

  it('logs out to /order?full from the order wizard', async () => {
    signIn();
    const { router, user } = renderApp('/order');
    await user.click(await screen.findByRole('button', { name: 'Log out' }));

    await waitFor(() => expect(currentUrl(router)).toBe('/order?full'));
    expect(await screen.findByRole('heading', { level: 1, name: 'New Order' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log out' })).not.toBeInTheDocument();
  });

  it('goes to /login when the session ends under a guarded page', async () => {
    signIn('access-1', 'refresh-1');
    server.use(
      http.get('/api/en/orders/count', () => HttpResponse.json({ message: 'expired' }, { status: 401 })),
      http.put('/api/en/auth/jwt/refresh', () => HttpResponse.json({ message: 'revoked' }, { status: 401 })),
    );
    const { router } = renderApp('/dashboard');

    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/login');
    expect(localStorage.getItem('refreshToken')).toBeNull();
  });
});

describe('order info', () => {
  it('shows the four tabs and follows the URL', async () => {
    signIn();
    const { router, user } = renderApp('/orderinfo/42');
    expect(await screen.findByRole('heading', { level: 1, name: 'Order #42' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/orderinfo/42/details');
    await screen.findByRole('tab', { name: 'Files' });
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual(['Order details', 'Files', 'Messages', 'Revisions']);
    await user.click(screen.getByRole('tab', { name: 'Files' }));
    // ADR 0101: the tab shows at once, the address follows once it is painted.
    expect(screen.getByRole('tab', { name: 'Files' })).toHaveAttribute('aria-selected', 'true');
    await waitFor(() => expect(currentUrl(router)).toBe('/orderinfo/42/files'));
  });

  it('does not bring the customer back to a tab chosen just before leaving the page (ADR 0101)', async () => {
    signIn();
    const { router, user } = renderApp('/orderinfo/42');
    await user.click(await screen.findByRole('tab', { name: 'Files' }));
    router.navigate('/loyalty');
    await waitFor(() => expect(currentUrl(router)).toBe('/loyalty'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(currentUrl(router)).toBe('/loyalty');
  });

  it('looks an order up by uid and opens its details', async () => {
    signIn();
    server.use(http.get('/api/en/orders/uid/:uid', ({ params }) => HttpResponse.json({ id: params.uid === 'abcdefghijklmnop' ? 42 : 0 })));
    const { router } = renderApp('/orderinfo?id=abcdefghijklmnop');
    expect(await screen.findByRole('heading', { level: 1, name: 'Order #42' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/orderinfo/42/details');
  });

  it('goes to /dashboard when the uid lookup fails', async () => {
    signIn();
    server.use(http.get('/api/en/orders/uid/:uid', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })));
    const { router } = renderApp('/orderinfo?id=unknown-uid-000000');
    expect(await screen.findByRole('heading', { level: 1, name: 'All Orders' })).toBeInTheDocument();
    expect(currentUrl(router)).toBe('/dashboard');
  });
});
