import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, openSignedIn, placeOrder, signUp, SLOW, tabTo, test } from './support';

/**
 * ADR 0042: a customer moves around the signed-in pages with the keyboard alone: the skip link,
 * the side navigation, the order list, the order page's tabs and a filter. Each route has its own
 * title, takes the focus on its heading and is announced; axe-core finds nothing on any of them.
 */
test.setTimeout(120_000);

const liveRegion = (page: Page) => page.getByTestId('live-region');

test('the signed-in pages work from the keyboard, with titles, heading focus and announcements', async ({ page }) => {
  const account = await signUp(page.request, 'keyboard-dashboard');
  const { id } = await placeOrder(page.request, account.accessToken, 'Keyboard journeys through the dashboard');
  await openSignedIn(page, account, '/dashboard');
  const heading = page.getByRole('heading', { level: 1, name: 'All Orders' });
  await expect(heading).toBeVisible(SLOW);
  await expect(page).toHaveTitle('All Orders · Writing Service');
  await expect(page.getByRole('article')).toHaveCount(1, SLOW);
  await expectNoAxeViolations(page, 'dashboard');

  // The first Tab reaches the skip link (it comes with the navigation); Enter focuses the main content.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
  await page.keyboard.press('Tab');
  const inMain = await page.evaluate(() => Boolean(document.activeElement?.closest('main')));
  expect(inMain).toBe(true);

  // The side navigation to Transactions: a new title, the focus on its heading, announced.
  const nav = page.getByRole('navigation', { name: 'Main' });
  await tabTo(page, nav.getByRole('link', { name: 'Transactions' }), { shift: true });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/transactions$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeFocused(SLOW);
  await expect(page).toHaveTitle('Transactions · Writing Service');
  await expect(liveRegion(page)).toHaveText('Transactions');
  await expectNoAxeViolations(page, 'transactions');

  await tabTo(page, nav.getByRole('link', { name: 'Settings' }), { shift: true });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeFocused(SLOW);
  await expect(page).toHaveTitle('Settings · Writing Service');
  await expectNoAxeViolations(page, 'profile');

  await tabTo(page, nav.getByRole('link', { name: /All Orders/ }), { shift: true });
  await page.keyboard.press('Enter');
  await expect(heading).toBeFocused(SLOW);
  await expect(liveRegion(page)).toHaveText('All Orders');

  // A filter from the keyboard: the status list moves with the arrows.
  const status = page.getByLabel('Status');
  await tabTo(page, status);
  await page.keyboard.press('ArrowDown');
  await expect(page).toHaveURL(/status=/);
  await expectNoAxeViolations(page, 'dashboard filtered');
  await tabTo(page, page.getByRole('button', { name: 'Clear filters' }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);

  // The order's card leads to its page; the tabs move with the arrows and keep the focus there.
  const card = page.getByRole('article', { name: new RegExp(`Order #${id}:`) });
  await tabTo(page, card.getByRole('link').first());
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/orderinfo/${id}/details$`), SLOW);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${id}` })).toBeFocused(SLOW);
  await expect(page).toHaveTitle(`Order #${id} · Writing Service`);
  await expect(liveRegion(page)).toHaveText(`Order #${id}`);
  await expectNoAxeViolations(page, 'order details');
  const details = page.getByRole('tab', { name: 'Details' });
  await tabTo(page, details);
  await page.keyboard.press('ArrowRight');
  const files = page.getByRole('tab', { name: 'Files' });
  await expect(files).toBeFocused();
  await expect(page).toHaveURL(new RegExp(`/orderinfo/${id}/files$`));
  await expect(files).toHaveAttribute('aria-selected', 'true');
  await expect(files).toBeFocused();
  await expectNoAxeViolations(page, 'order files');
});
