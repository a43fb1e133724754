import type { Page } from '@playwright/test';
import { type Account, expect, expectNoAxeViolations, openSignedIn, placeOrder, signUp, SLOW, test } from './support';

/**
 * SPEC §2 /dashboard journeys (ADR 0021, 0022): a fresh customer with 30 orders (placed through the API), filtered,
 * searched, paged and hidden in Chromium; grid and list.
 */
test.describe.configure({ mode: 'serial' });
// The machine running the journeys is shared and slow to serve the first lazy chunks: generous waits.
test.setTimeout(120_000);

let account: Account;
const titles = Array.from({ length: 30 }, (_, i) => `Journey order ${String(i + 1).padStart(2, '0')}`);

test.beforeAll(async ({ playwright }, testInfo) => {
  const request = await playwright.request.newContext({
    baseURL: testInfo.project.use.baseURL,
    extraHTTPHeaders: { 'X-Forwarded-For': '10.9.9.9' },
  });
  account = await signUp(request, 'dashboard');
  for (const title of titles) await placeOrder(request, account.accessToken, title);
  await request.dispose();
});

const cards = (page: Page) => page.getByRole('list', { name: 'Orders' }).getByRole('article');

test('pages through 30 orders 12 at a time and keeps the page in the address', async ({ page }) => {
  await openSignedIn(page, account, '/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible(SLOW);
  await expect(cards(page)).toHaveCount(12, SLOW);
  await expect(page.getByText('Showing 1–12 of 30 orders')).toBeVisible();
  await expectNoAxeViolations(page, 'first page');
  const pages = page.getByRole('navigation', { name: 'Order pages' });
  await pages.getByRole('button', { name: 'Page 3' }).click();
  await expect(page).toHaveURL(/\/dashboard\?page=3$/);
  await expect(cards(page)).toHaveCount(6);
  await expectNoAxeViolations(page, 'page 3');
  await page.reload();
  await expect(page.getByText('Showing 25–30 of 30 orders')).toBeVisible();
  await page.goBack();
  await expect(page.getByText('Showing 1–12 of 30 orders')).toBeVisible();
});

test('searches, filters by status and creation date, and resets the page', async ({ page }) => {
  await openSignedIn(page, account, '/dashboard?page=2');
  await expect(page.getByText('Showing 13–24 of 30 orders')).toBeVisible(SLOW);

  await page.getByLabel('Search').fill('Journey order 07');
  await expect(page).toHaveURL(/\/dashboard\?q=Journey\+order\+07$/);
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).first()).toContainText('Journey order 07');
  await expectNoAxeViolations(page, 'searched');

  await page.getByLabel('Search').fill('');
  await expect(page.getByText('Showing 1–12 of 30 orders')).toBeVisible();
  await page.getByLabel('Status').selectOption({ label: 'Completed' });
  await expect(page).toHaveURL(/status=5/);
  await expect(page.getByRole('heading', { name: 'No orders match these filters' })).toBeVisible();
  await expectNoAxeViolations(page, 'no order matches');
  await page.getByLabel('Status').selectOption({ label: 'Unpaid' });
  await expect(page.getByText('Showing 1–12 of 30 orders')).toBeVisible();

  // Every order was created today (server time, UTC): a range ending yesterday holds none of them.
  const today = new Date().toISOString().slice(0, 10);
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await page.getByLabel('Created from').fill(today);
  await page.getByLabel('Created to').fill(today);
  await expect(page.getByText('Showing 1–12 of 30 orders')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`from=${today}&to=${today}`));
  await page.getByLabel('Created from').fill(yesterday);
  await page.getByLabel('Created to').fill(yesterday);
  await expect(page.getByRole('heading', { name: 'No orders match these filters' })).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByText('Showing 1–12 of 30 orders')).toBeVisible();
});

test('hides an order at once, lists it among the hidden ones, and unhides it', async ({ page }) => {
  await openSignedIn(page, account, '/dashboard?q=Journey+order+30');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: /All Orders/ })).toContainText('30', SLOW);
  await expect(cards(page)).toHaveCount(1, SLOW);
  const card = cards(page).filter({ hasText: 'Journey order 30' });
  const id = (await card.locator('span', { hasText: /^#\d+$/ }).textContent())?.slice(1) ?? '';
  await card.getByRole('button', { name: `Hide order #${id}` }).click();
  await expect(card).toHaveCount(0);
  await expect(nav.getByRole('link', { name: /All Orders/ })).toContainText('29');

  await page.getByLabel('Show hidden orders').check();
  await expect(page).toHaveURL(/hidden=1/);
  await expect(cards(page)).toHaveCount(1);
  await expectNoAxeViolations(page, 'hidden orders');
  await cards(page)
    .first()
    .getByRole('button', { name: `Unhide order #${id}` })
    .click();
  await expect(cards(page)).toHaveCount(0);
  await page.getByLabel('Show hidden orders').uncheck();
  await expect(cards(page)).toHaveCount(1);
  await expect(nav.getByRole('link', { name: /All Orders/ })).toContainText('30');
});

test('shows cards in a grid or rows in a list, and remembers the choice', async ({ page }) => {
  await openSignedIn(page, account, '/dashboard');
  await expect(cards(page)).toHaveCount(12, SLOW);
  const first = await cards(page).nth(0).boundingBox();
  const second = await cards(page).nth(1).boundingBox();
  expect(first && second && Math.abs(first.y - second.y) < 2).toBe(true);

  await page.getByRole('button', { name: 'List' }).click();
  await expect(page.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
  const a = await cards(page).nth(0).boundingBox();
  const b = await cards(page).nth(1).boundingBox();
  expect(a && b && b.y > a.y + a.height - 1).toBe(true);
  await expectNoAxeViolations(page, 'list view');
  await page.reload();
  await expect(page.getByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true', SLOW);
});
