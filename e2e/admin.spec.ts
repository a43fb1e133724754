import { randomBytes, randomInt } from 'node:crypto';
import type { APIRequestContext, Browser, Page, TestInfo } from '@playwright/test';
import { generate } from 'otplib';
import {
  type Account,
  ADMIN,
  completeInstructionsStep,
  completePaperStep,
  expect,
  expectNoAxeViolations,
  openNavigation,
  openSignedIn,
  placeOrder,
  shoot,
  signUp,
  SLOW,
  test,
  WIZARD_WAIT,
  wizardStep,
  wizardTotal,
} from './support';

/**
 * ADR 0090: the admin (role 7). The demo admin signs in with the password, is sent to turn on two-factor
 * sign-in (admins must) and does so with the QR code's key; publishes a new price after previewing the
 * wizard's price for a sample order (a zero price is refused on the spot); a new visit to the wizard shows
 * it while an order placed before keeps its price; creates a discount code that the customer's wizard
 * then applies; the audit log lists each change; the next sign-in asks for the code. axe-core on each
 * state at 1280 and 390 px.
 */
test.setTimeout(300_000);

/** axe on the page as it is, at the desktop width and at 390 px (the narrow layout), then back. */
const axeBothWidths = async (page: Page, state: string, { dialog = false } = {}) => {
  await expectNoAxeViolations(page, `${state}, 1280 px`);
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  // With a dialog open the page behind it is inert: the navigation stays closed.
  if (!dialog) await openNavigation(page);
  await expectNoAxeViolations(page, `${state}, 390 px`);
  if (!dialog) await page.keyboard.press('Escape');
  if (viewport) await page.setViewportSize(viewport);
};

/** Another client (its own browser context and address), as the customer's own browser would be. */
const otherClient = async (browser: Browser, testInfo: TestInfo): Promise<Page> => {
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    viewport: { width: 1280, height: 800 },
    bypassCSP: true,
    extraHTTPHeaders: { 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` },
  });
  return context.newPage();
};

const cents = (usd: string) => Math.round(Number(usd.replace(/[$,]/g, '')) * 100);
const usd = (value: number) => `$${(value / 100).toFixed(2)}`;

const orderPrice = async (request: APIRequestContext, customer: Account, id: number): Promise<number> => {
  const response = await request.get(`/api/en/orders/${id}`, { headers: { Authorization: `Bearer ${customer.accessToken}` } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { price: { finalPrice: number } }).price.finalPrice;
};

test('an admin turns on two-factor, publishes a price and creates a code that the wizard then shows; the audit log lists each', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const customer = await signUp(request, 'admin-journey');
  const existing = await placeOrder(request, customer.accessToken, 'An essay priced before the change');
  const existingPrice = await orderPrice(request, customer, existing.id);

  // The customer's wizard before the change: work type 1, level 1, 10 days, 1 page (SPEC §9 defaults).
  const before = await otherClient(browser, testInfo);
  await openSignedIn(before, customer, '/order');
  await expect(wizardStep(before, 'Paper')).toBeVisible(WIZARD_WAIT);
  // At 1280 px the price is a column (wizardTotal reads it once it is there).
  await expect(before.getByRole('complementary', { name: 'Price' })).toBeVisible(WIZARD_WAIT);
  const oldTotal = await wizardTotal(before);
  await before.context().close();

  // The admin signs in with the password and is sent to turn on two-factor sign-in first.
  await page.goto('/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/staff$/, SLOW);
  await page.getByRole('link', { name: 'Admin: prices' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Prices' })).toBeVisible(SLOW);
  await expect(page.getByRole('heading', { name: 'Turn on two-factor sign-in' })).toBeVisible(SLOW);
  await expect(page.getByText('Admins must use two-factor sign-in')).toBeVisible();
  await axeBothWidths(page, 'two-factor required');
  await page.getByRole('button', { name: 'Show the QR code' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible(SLOW);
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await axeBothWidths(page, 'two-factor QR code');
  await shoot(page, 'admin-two-factor');
  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('That code is not right. Enter the code your authenticator app shows now.')).toBeVisible(SLOW);
  await page.getByLabel('Code from the app').fill(await generate({ secret }));
  await page.getByRole('button', { name: 'Turn on' }).click();

  // The price tables: the wizard's default rate, changed and previewed with the domain's price function.
  const rate = page.getByLabel('10 days (USD per page)');
  await expect(rate).toBeVisible(SLOW);
  expect(usd(cents(await rate.inputValue()))).toBe(oldTotal);
  const newRate = cents(oldTotal) + 1050;
  await rate.fill('0');
  await expect(page.getByText('A price must be more than 0').first()).toBeVisible();
  await rate.fill((newRate / 100).toFixed(2));
  await page.getByLabel('Sample deadline').selectOption({ label: '10 days' });
  await page.getByLabel('Sample pages').fill('1');
  await expect(page.getByTestId('preview-now')).toHaveText(oldTotal);
  await expect(page.getByTestId('preview-after')).toHaveText(usd(newRate));
  await axeBothWidths(page, 'prices, a change previewed');
  await shoot(page, 'admin-prices');
  await page.getByRole('button', { name: 'Publish prices' }).click();
  await expect(page.getByText('Essay prices published for new quotes')).toBeVisible(SLOW);

  // A new quote shows the new price; the order placed before keeps its stored price.
  const after = await otherClient(browser, testInfo);
  await openSignedIn(after, customer, '/order');
  await expect(wizardStep(after, 'Paper')).toBeVisible(WIZARD_WAIT);
  await expect(after.getByRole('complementary', { name: 'Price' })).toBeVisible(WIZARD_WAIT);
  // Read as it is each time (not waited for a figure), so a miss names what the wizard showed.
  await expect(after.getByRole('complementary', { name: 'Price' }).getByTestId('final-price')).toHaveText(usd(newRate), SLOW);
  expect(await orderPrice(request, customer, existing.id)).toBe(existingPrice);

  // A discount code, created by the admin, then applied in the customer's wizard.
  const code = `SAVE${randomBytes(3).toString('hex').toUpperCase()}`;
  await page.getByRole('link', { name: 'Admin: codes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Discount codes' })).toBeVisible(SLOW);
  await page.getByRole('button', { name: 'New code' }).click();
  const dialog = page.getByRole('dialog', { name: 'New discount code' });
  await expect(dialog).toBeVisible(SLOW);
  await dialog.getByLabel('Code', { exact: true }).fill(code);
  await dialog.getByLabel('Percent off').fill('125');
  await dialog.getByRole('button', { name: 'Create code' }).click();
  await expect(dialog.getByText('A percent discount cannot be more than 100 %')).toBeVisible();
  await axeBothWidths(page, 'new code, percent refused', { dialog: true });
  await dialog.getByLabel('Percent off').fill('25');
  await dialog.getByRole('button', { name: 'Create code' }).click();
  await expect(dialog).toBeHidden(SLOW);
  const codes = page.getByRole('list', { name: 'Discount codes' });
  await expect(codes.getByText(code, { exact: false })).toBeVisible(SLOW);
  await expect(codes.getByRole('listitem').filter({ hasText: code })).toContainText('0 uses');
  await axeBothWidths(page, 'discount codes');
  await shoot(page, 'admin-discounts');

  await completePaperStep(after);
  await completeInstructionsStep(after, 'Pricing Policy in Small Businesses');
  await after.getByRole('button', { name: 'Have a code?' }).click();
  await after.getByLabel('Discount code').fill(code);
  await after.getByRole('button', { name: 'Apply' }).click();
  await expect(after.getByText('Your discount has been successfully applied')).toBeVisible(WIZARD_WAIT);
  await expect.poll(async () => cents(await wizardTotal(after)), SLOW).toBe(newRate - Math.round(newRate * 0.25));
  await after.context().close();

  // The audit log lists each change with its actor; the CSV export is offered.
  await page.getByRole('link', { name: 'Admin: audit log' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Audit log' })).toBeVisible(SLOW);
  const entries = page.getByRole('list', { name: 'Audit entries' });
  await expect(entries.getByText('discount.create')).toBeVisible(SLOW);
  await expect(entries.getByText('prices.update')).toBeVisible();
  await expect(entries.getByText('staff.two-factor-on')).toBeVisible();
  await expect(entries.getByRole('listitem').filter({ hasText: 'discount.create' })).toContainText(code);
  await axeBothWidths(page, 'audit log');
  await shoot(page, 'admin-audit');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  expect((await download).suggestedFilename()).toBe('audit-log.csv');

  // The next sign-in asks for the code after the password.
  const again = await otherClient(browser, testInfo);
  await again.goto('/login');
  await again.getByLabel('Email').fill(ADMIN.email);
  await again.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await again.getByRole('button', { name: 'Sign in', exact: true }).click();
  const codeField = again.getByLabel('Code from your authenticator app');
  await expect(codeField).toBeVisible(SLOW);
  await expect(codeField).toBeFocused();
  await expectNoAxeViolations(again, 'sign-in asks for the code');
  // A code works once: the enrolment spent the step it was typed in, which may still be the current one.
  // The next step's code is accepted now too (one step of clock drift either side) and was never used.
  await codeField.fill(await generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 }));
  await again.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(again).toHaveURL(/\/staff$/, SLOW);
  await again.context().close();
});
