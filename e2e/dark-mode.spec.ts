import type { APIRequestContext, Browser, Page, TestInfo } from '@playwright/test';
import {
  bearer,
  closePaymentChooser,
  expect,
  expectNoAxeViolations,
  openSignedIn,
  openWizard,
  placeOrder,
  shoot,
  signInApi,
  signUp,
  SLOW,
  SUPPORT,
  test,
} from './support';

/**
 * ADR 0094, issue 27 "Dark mode": the site follows the device's colour scheme; /profile's Theme choice
 * (System, Light, Dark) applies at once and is remembered; a reload paints the chosen theme before any
 * of the app's code runs (the server's inline script, allowed by the CSP's hash); every main screen in
 * the dark theme, with axe-core (which checks both themes on every state, e2e/support.ts) and screenshots
 * at 1280 and 390 px.
 */
test.setTimeout(300_000);

/** The page's background as sRGB channels, whatever colour syntax the style sheet used (oklch, lab…). */
const pageBackground = (page: Page) =>
  page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no canvas');
    context.fillStyle = getComputedStyle(document.documentElement).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data;
    return (r + g + b) / 3;
  });
const expectDark = async (page: Page) => expect.poll(() => pageBackground(page)).toBeLessThan(60);
const expectLight = async (page: Page) => expect.poll(() => pageBackground(page)).toBeGreaterThan(200);

/** A browser context that keeps the product's CSP (the journeys' default bypasses it for axe). */
const strictContext = (browser: Browser, testInfo: TestInfo, colorScheme: 'light' | 'dark') =>
  browser.newContext({ baseURL: testInfo.project.use.baseURL, colorScheme, viewport: { width: 1280, height: 800 } });

test('follows the device, and the profile’s choice overrides it, applied at once and painted before the app runs', async ({
  page,
  request,
  browser,
}, testInfo) => {
  const customer = await signUp(request, 'dark-choice');

  // No choice: the device's scheme.
  await page.emulateMedia({ colorScheme: 'dark' });
  await openWizard(page);
  await expectDark(page);
  await page.emulateMedia({ colorScheme: 'light' });
  await expectLight(page);

  // The choice in /profile applies at once.
  await openSignedIn(page, customer, '/profile');
  const theme = page.getByRole('group', { name: 'Theme' });
  await expect(theme).toBeVisible(SLOW);
  await expect(theme.getByRole('radio', { name: 'System' })).toBeChecked();
  await theme.getByText('Dark', { exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectDark(page);
  await expectNoAxeViolations(page, 'profile, Dark chosen');
  await shoot(page, 'dark-profile');

  // Remembered: a reload keeps it, and a device in light mode does not change it.
  await page.reload();
  await expect(page.getByRole('group', { name: 'Theme' }).getByRole('radio', { name: 'Dark' })).toBeChecked(SLOW);
  await expectDark(page);

  // Light on a dark device, then System again.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('group', { name: 'Theme' }).getByText('Light', { exact: true }).click();
  await expectLight(page);
  await page.getByRole('group', { name: 'Theme' }).getByText('System', { exact: true }).click();
  await expect(page.locator('html')).not.toHaveAttribute('data-theme');
  await expectDark(page);
  expect(await page.evaluate(() => localStorage.getItem('colorScheme'))).toBeNull();

  // No flash: with the app's code held back, the server's pages (drawn or not) already have the chosen
  // theme, under the product's own CSP (no violation reported).
  for (const [choice, device] of [
    ['dark', 'light'],
    ['light', 'dark'],
  ] as const) {
    const context = await strictContext(browser, testInfo, device);
    const strict = await context.newPage();
    const refused: string[] = [];
    strict.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await strict.goto('/healthz');
    await strict.evaluate((value) => localStorage.setItem('colorScheme', value), choice);
    await strict.route('**/assets/*.js', (route) => route.abort());
    for (const url of ['/order', '/login', '/dashboard']) {
      await strict.goto(url);
      await expect(strict.locator('html'), url).toHaveAttribute('data-theme', choice);
      if (choice === 'dark') await expectDark(strict);
      else await expectLight(strict);
    }
    expect(refused).toEqual([]);
    await context.close();
  }
});

/** A customer with an unpaid order and a paid one (support records the payment, ADR 0071). */
const customerWithOrders = async (request: APIRequestContext) => {
  const customer = await signUp(request, 'dark-screens');
  const unpaid = await placeOrder(request, customer.accessToken, 'An essay read at night');
  const paid = await placeOrder(request, customer.accessToken, 'An essay paid at night');
  const support = await signInApi(request, SUPPORT.email, SUPPORT.password);
  const payment = await request.post(`/api/staff/orders/${paid.id}/payments`, {
    headers: bearer(support),
    data: { reference: `E2E-DARK-${paid.id}` },
  });
  expect(payment.status(), await payment.text()).toBe(200);
  return { customer, unpaid, paid, support };
};

test('the dark theme: wizard, payment step, dashboard', async ({ page, request }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openWizard(page);
  await expectDark(page);
  await expectNoAxeViolations(page, 'wizard, dark device');
  await shoot(page, 'dark-wizard');

  const { customer, unpaid } = await customerWithOrders(request);
  // The payment step: Pay on an unpaid order's page opens the chooser.
  await openSignedIn(page, customer, `/orderinfo/${unpaid.id}/details`);
  await page
    .getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ })
    .first()
    .click(SLOW);
  await expect(page.getByRole('dialog', { name: 'Choose a payment method' })).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'payment method chooser');
  await shoot(page, 'dark-payment-chooser');
  await closePaymentChooser(page);

  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible(SLOW);
  await expect(page.getByText('An essay read at night').first()).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'dashboard');
  await shoot(page, 'dark-dashboard');
});

test('the dark theme: order page tabs, chat, loyalty, profile', async ({ page, request }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  const { customer, paid } = await customerWithOrders(request);
  await openSignedIn(page, customer, `/orderinfo/${paid.id}/details`);
  for (const tab of ['details', 'files', 'messages'] as const) {
    await page.goto(`/orderinfo/${paid.id}/${tab}`);
    await expect(page.getByRole('heading', { level: 1, name: `Order #${paid.id}` })).toBeVisible(SLOW);
    await expect(page.getByRole('tab', { selected: true }).first()).toBeVisible(SLOW);
    if (tab === 'messages') await expect(page.getByRole('log').first()).toBeVisible(SLOW);
    await expectNoAxeViolations(page, `order page, ${tab}`);
    await shoot(page, `dark-order-${tab}`);
  }

  await page.goto('/loyalty');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'loyalty');
  await shoot(page, 'dark-loyalty');

  await page.goto('/profile');
  await expect(page.getByRole('group', { name: 'Theme' })).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'profile');
  await shoot(page, 'dark-profile-system');
});

test('the dark theme: staff console', async ({ page, request }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  const { paid, support } = await customerWithOrders(request);
  await openSignedIn(page, support, '/staff');
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'staff queue');
  await shoot(page, 'dark-staff-queue');
  await page.goto(`/staff/orders/${paid.id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${paid.id}` })).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'staff order');
  await shoot(page, 'dark-staff-order');

  // The admin screens are checked in dark by admin.spec.ts itself (every axe call also runs the colour rules in
  // dark): its two-factor secret is known only there, and it turns two-factor on for the admin account.
});
