import { expect, shoot, test, expectNoAxeViolations } from './support';

// UI contract "Routes": guarded routes send visitors to /login; unknown paths land on /404.
test.describe('a visitor', () => {
  test('opening /dashboard is sent to /login', async ({ page }) => {
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    await shoot(page, 'visitor-login');
    await expectNoAxeViolations(page);
  });

  test('opening an unknown path sees "Page not found" with a way to All Orders', async ({ page }) => {
    await page.goto('/no-such-page/at-all');
    await expect(page).toHaveURL(/\/404$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    const toOrders = page.getByRole('link', { name: 'Go to All Orders' });
    await expect(toOrders).toHaveAttribute('href', '/dashboard');
    await shoot(page, 'not-found');
    await expect(page).toHaveTitle('Page not found · Writing Service');
    await expectNoAxeViolations(page);
    // All Orders is guarded: a visitor following the link is asked to sign in.
    await toOrders.click();
    await expect(page).toHaveURL(/\/login$/);
  });
});
