import type { APIRequestContext, APIResponse, Page } from '@playwright/test';
import {
  type Account,
  bearer,
  expect,
  expectNoAxeViolations,
  openSignedIn,
  placeOrder,
  shoot,
  signInApi,
  signUp,
  SLOW,
  SUPPORT,
  test,
  WRITER,
} from './support';

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

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');
const ok = async (response: Promise<APIResponse>) => {
  const res = await response;
  expect(res.status(), await res.text()).toBe(200);
};

/** Issue 27: orders in the states whose cards need an action, moved there by support and the writer's delivery. */
const ordersInEveryState = async (request: APIRequestContext, customer: Account) => {
  const staff = await signInApi(request, SUPPORT.email, SUPPORT.password);
  const writer = await signInApi(request, WRITER.email, WRITER.password);
  const writerId = ((await (await request.get('/api/staff/me', { headers: bearer(writer) })).json()) as { id: number }).id;
  const paid = async (title: string) => {
    const { id } = await placeOrder(request, customer.accessToken, title);
    await ok(request.post(`/api/staff/orders/${id}/payments`, { headers: bearer(staff), data: { reference: `E2E-DASH-${id}` } }));
    return id;
  };
  const delivered = async (title: string) => {
    const id = await paid(title);
    await ok(request.put(`/api/staff/orders/${id}/writer`, { headers: bearer(staff), data: { idWriter: writerId } }));
    await ok(
      request.post(`/api/staff/orders/${id}/files`, {
        headers: bearer(staff),
        multipart: { file: { name: 'essay.pdf', mimeType: 'application/pdf', buffer: PDF } },
      }),
    );
    await ok(request.post(`/api/staff/orders/${id}/delivery`, { headers: bearer(staff), data: { message: 'Done.' } }));
    return id;
  };
  const unpaid = (await placeOrder(request, customer.accessToken, 'Card to pay')).id;
  const review = await delivered('Card to review');
  const completed = await delivered('Card completed');
  await ok(request.put(`/api/staff/orders/${completed}/status`, { headers: bearer(staff), data: { status: 5 } }));
  const held = await paid('Card on hold');
  await ok(
    request.put(`/api/staff/orders/${held}/status`, { headers: bearer(staff), data: { status: 9, reason: 'Waiting for your sources' } }),
  );
  return { unpaid, review, completed, held };
};

test('each card carries the action its state needs, and Hold says what to do (issue 27)', async ({ page, request }) => {
  // Four orders moved through payment, assignment, delivery, completion and hold by support's API first.
  test.setTimeout(240_000);
  const customer = await signUp(request, 'dashboard-actions');
  const ids = await ordersInEveryState(request, customer);
  await openSignedIn(page, customer, '/dashboard');
  await expect(cards(page)).toHaveCount(4, SLOW);
  const card = (title: string) => cards(page).filter({ hasText: title });

  await expect(card('Card to pay').getByRole('button', { name: new RegExp(`^Pay .+ for order #${ids.unpaid}$`) })).toBeVisible(SLOW);
  await expect(card('Card to review').getByRole('link', { name: `Review delivery of order #${ids.review}` })).toBeVisible();
  await expect(card('Card completed').getByRole('link', { name: `Request revision of order #${ids.completed}` })).toBeVisible();
  await expect(card('Card completed').getByRole('button', { name: `Leave feedback on order #${ids.completed}` })).toBeVisible();
  await expect(card('Card on hold')).toContainText('Work is paused: open Messages to see what support needs from you to go on.');
  // Only its state's action: no Pay on a paid order, no feedback before completion.
  await expect(card('Card on hold').getByRole('button', { name: /^Pay|Leave feedback/ })).toHaveCount(0);
  await expect(card('Card to review').getByRole('button', { name: /^Pay|Leave feedback/ })).toHaveCount(0);
  // The navigation's pills say what they count.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /All Orders/ })).toContainText('4 total');
  await expectNoAxeViolations(page, 'card actions');
  await shoot(page, 'dashboard-card-actions');

  // Leave feedback opens the feedback dialog in place; Escape closes it.
  await card('Card completed')
    .getByRole('button', { name: `Leave feedback on order #${ids.completed}` })
    .click();
  await expect(page.getByRole('dialog', { name: 'Leave feedback' })).toBeVisible(SLOW);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Leave feedback' })).toHaveCount(0);

  // Request revision opens the order's Revisions tab.
  await card('Card completed')
    .getByRole('link', { name: `Request revision of order #${ids.completed}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/orderinfo/${ids.completed}/revisions$`));
  await expect(page.getByRole('tab', { name: /Revisions/ })).toHaveAttribute('aria-selected', 'true', SLOW);

  // The order page of the held order says the same line.
  await page.goto(`/orderinfo/${ids.held}/details`);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${ids.held}` })).toBeVisible(SLOW);
  await expect(page.getByText('Work is paused: open Messages to see what support needs from you to go on.')).toBeVisible();
  await shoot(page, 'order-page-hold');
});

test('List is compact rows, Grid is cards; a mouse click draws no focus ring, the keyboard does (issue 27)', async ({ page }) => {
  await openSignedIn(page, account, '/dashboard');
  await expect(cards(page)).toHaveCount(12, SLOW);
  await page.getByRole('button', { name: 'Grid' }).click();
  const gridHeight = (await cards(page).nth(0).boundingBox())?.height ?? 0;
  const focusVisible = () => page.evaluate(() => document.activeElement?.matches(':focus-visible') ?? false);
  await page.getByRole('button', { name: 'List' }).click();
  expect(await focusVisible()).toBe(false);
  const outline = await page.getByRole('button', { name: 'List' }).evaluate((el) => getComputedStyle(el).outlineStyle);
  expect(outline).toBe('none');
  await expect(page.getByRole('list', { name: 'Orders' })).toHaveAttribute('data-view', 'list');
  const listHeight = (await cards(page).nth(0).boundingBox())?.height ?? 0;
  // A row is far lower than a card.
  expect(listHeight).toBeLessThan(gridHeight * 0.6);
  await shoot(page, 'dashboard-list-rows');
  await page.keyboard.press('Shift+Tab');
  expect(await focusVisible()).toBe(true);
  await page.getByRole('button', { name: 'Grid' }).click();
  await expect(page.getByRole('list', { name: 'Orders' })).toHaveAttribute('data-view', 'grid');
});

test('a hard load of a signed-in page paints the shell with skeletons, first from the server (issue 27)', async ({ page }) => {
  await openSignedIn(page, account, '/dashboard');
  await expect(cards(page)).toHaveCount(12, SLOW);
  // The browser now carries the session hint: the server puts the skeleton in the page it sends.
  const html = await (await page.request.get('/dashboard')).text();
  expect(html).toContain('data-skeleton="shell"');
  const visitorHtml = await (await page.request.get('/order')).text();
  expect(visitorHtml).not.toContain('data-skeleton');
  // While the startup waits for the customer, the app shows the same frame, not one spinner.
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/en/customers/customer', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/dashboard');
  await expect(page.locator('[data-skeleton="shell"]')).toBeVisible(SLOW);
  await expect(page.getByRole('status', { name: 'Loading' })).toBeVisible();
  // ADR 0101: the frame has words before any script has run (the site's name; the navigation's on a wide screen).
  await expect(page.locator('[data-skeleton="shell"]')).toContainText('Writing Service');
  await shoot(page, 'dashboard-skeleton');
  release();
  await expect(cards(page)).toHaveCount(12, SLOW);
  await expect(page.locator('[data-skeleton]')).toHaveCount(0);
});
