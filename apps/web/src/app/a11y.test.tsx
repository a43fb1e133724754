import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

/** ADR 0042: titles, the focus after a route change, its announcement, the skip link. */
const liveRegion = () => screen.getByTestId('live-region');

// Lazy pages load on first use; on a busy 2-core machine that takes a while.
vi.setConfig({ testTimeout: 20_000 });
beforeEach(() => {
  document.title = '';
  server.use(http.get('/api/en/customers/transactions', () => HttpResponse.json({ transactions: [], total: 0 })));
});

describe('page titles', () => {
  it.each([
    ['/dashboard', 'All Orders · Writing Service'],
    ['/transactions', 'Transactions · Writing Service'],
    ['/profile', 'Settings · Writing Service'],
    ['/loyalty', 'My Bonuses · Writing Service'],
    ['/orderinfo/12/details', 'Order #12 · Writing Service'],
    ['/orderinfo/12/files', 'Order #12 · Writing Service'],
    ['/order', 'New Order · Writing Service'],
  ])('gives the signed-in page %s the title "%s"', async (url, title) => {
    signIn();
    renderApp(url);
    await waitFor(() => expect(document.title).toBe(title));
  });

  it.each([
    ['/login', 'Sign in · Writing Service'],
    ['/no/such/page', 'Page not found · Writing Service'],
    ['/reset-password?token=abc', 'Set a new password · Writing Service'],
  ])('gives %s the title "%s"', async (url, title) => {
    renderApp(url);
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(document.title).toBe(title));
  });
});

describe('route changes', () => {
  it('leaves the focus alone on the first page, then moves it to the new page heading and announces it', async () => {
    signIn();
    const { user } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'All Orders' });
    expect(document.body).toHaveFocus();
    expect(liveRegion()).toHaveTextContent('');

    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await user.click(within(nav).getByRole('link', { name: 'Transactions' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Transactions' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(heading).toHaveAttribute('tabindex', '-1');
    await waitFor(() => expect(liveRegion()).toHaveTextContent('Transactions'));
    expect(document.title).toBe('Transactions · Writing Service');

    await user.click(within(nav).getByRole('link', { name: 'Settings' }));
    const settings = await screen.findByRole('heading', { level: 1, name: 'Settings' });
    await waitFor(() => expect(settings).toHaveFocus());
    await waitFor(() => expect(liveRegion()).toHaveTextContent('Settings'));
  });

  it('has one polite live region', async () => {
    renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(liveRegion()).toHaveAttribute('aria-live', 'polite');
    expect(document.querySelectorAll('[aria-live="polite"][data-testid="live-region"]')).toHaveLength(1);
  });
});

describe('skip link', () => {
  it('is the first Tab stop of a signed-in page and moves the focus to the main content', async () => {
    signIn();
    const { user } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'All Orders' });
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to main content' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
  });

  it('is not offered to a visitor on /login', async () => {
    renderApp('/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(screen.queryByRole('link', { name: 'Skip to main content' })).not.toBeInTheDocument();
  });
});
