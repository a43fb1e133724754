import type { Page } from '@playwright/test';
import { type Account, expect, expectNoAxeViolations, openSignedIn, placeOrder, shoot, signUp, SLOW, test } from './support';

/**
 * Issue 27 at 390 px (phone project): the dashboard's filters wait behind "Filters" with the count of those
 * active, the cards keep their actions, nothing widens the page, and a hidden order offers Unhide.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

let account: Account;
const orderIds: number[] = [];

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({
    baseURL: testInfo.project.use.baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': '10.9.9.27' },
  });
  account = await signUp(request, 'phone-dashboard');
  for (const title of ['Phone essay one', 'Phone essay two', 'Phone essay three']) {
    orderIds.push((await placeOrder(request, account.accessToken, title)).id);
  }
  await request.dispose();
});

const cards = (page: Page) => page.getByRole('list', { name: 'Orders' }).getByRole('article');
const pageWidth = (page: Page) => page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);

test('the filters wait behind "Filters" with the count of those active', async ({ page }) => {
  expect(page.viewportSize()?.width).toBe(390);
  await openSignedIn(page, account, '/dashboard');
  await expect(cards(page)).toHaveCount(3, SLOW);
  // The first screen shows orders, not the filter form.
  await expect(page.getByRole('search', { name: 'Filter orders' })).toHaveCount(0);
  const filters = page.getByRole('button', { name: /^Filters/ });
  await expect(filters).toHaveAccessibleName('Filters');
  const firstCard = await cards(page).first().boundingBox();
  expect(firstCard && firstCard.y < 844).toBe(true);
  // The unpaid cards carry Pay.
  await expect(
    cards(page)
      .first()
      .getByRole('button', { name: /^Pay .+ for order #\d+$/ }),
  ).toBeVisible();
  expect(await pageWidth(page)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page, 'phone dashboard');
  await shoot(page, 'phone-dashboard');

  await filters.click();
  const sheet = page.getByRole('dialog', { name: 'Filters' });
  await expect(sheet).toBeVisible(SLOW);
  await sheet.getByLabel('Search').fill('Phone essay two');
  await expect(page).toHaveURL(/q=Phone\+essay\+two/, SLOW);
  await sheet.getByLabel('Status').selectOption({ label: 'Unpaid' });
  await expect(page).toHaveURL(/status=1/);
  expect(await pageWidth(page)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page, 'filters sheet');
  await shoot(page, 'phone-dashboard-filters-sheet');
  await sheet.getByRole('button', { name: 'Show orders' }).click();
  await expect(sheet).toHaveCount(0);
  await expect(filters).toHaveAccessibleName('Filters 2 active');
  await expect(cards(page)).toHaveCount(1);
  await expect(filters).toBeFocused();

  await filters.click();
  await page.getByRole('dialog', { name: 'Filters' }).getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.keyboard.press('Escape');
  await expect(filters).toHaveAccessibleName('Filters');
  await expect(cards(page)).toHaveCount(3);

  // List: compact rows at 390 px too, and still no wider than the screen.
  await page.getByRole('button', { name: 'List' }).click();
  await expect(page.getByRole('list', { name: 'Orders' })).toHaveAttribute('data-view', 'list');
  expect(await pageWidth(page)).toBeLessThanOrEqual(390);
  await shoot(page, 'phone-dashboard-list');
  await page.getByRole('button', { name: 'Grid' }).click();
});

test('a hidden order says so and offers Unhide, not "Something went wrong"', async ({ page }) => {
  const id = orderIds[0] ?? 0;
  await openSignedIn(page, account, '/dashboard');
  await cards(page)
    .filter({ hasText: 'Phone essay one' })
    .getByRole('button', { name: `Hide order #${id}` })
    .click();
  await expect(cards(page)).toHaveCount(2, SLOW);

  await page.goto(`/orderinfo/${id}/details`);
  await expect(page.getByRole('alert')).toContainText('This order is hidden', SLOW);
  await expect(page.getByText('Something went wrong while fetching order data')).toHaveCount(0);
  expect(await pageWidth(page)).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page, 'hidden order');
  await shoot(page, 'phone-order-hidden');
  await page.getByRole('button', { name: 'Unhide' }).click();
  await expect(page.getByRole('tab', { name: /Order details/ })).toBeVisible(SLOW);
  await expect(page.getByText('Phone essay one').first()).toBeVisible();
  await page.goto('/dashboard');
  await expect(cards(page)).toHaveCount(3, SLOW);
});
