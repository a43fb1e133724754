import type { APIRequestContext, Page } from '@playwright/test';
import {
  expect,
  expectNoAxeViolations,
  openSignedIn,
  openWizard,
  placeOrder,
  shoot,
  signUp,
  test,
  WIZARD_WAIT,
  wizardStep,
} from './support';

/**
 * Issue 27, the customer's journey as seen on screen (ADR 0091): at 1280 px and at 390 px in mobile
 * emulation (a phone's layout viewport grows with what overflows it, so a too-wide element widens the page).
 */

const PHONE_EMULATION = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

/** The page is no wider than the screen: nothing sticks out sideways. */
const expectNoSidewaysScroll = async (page: Page, width: number) => {
  const scrollWidth = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
  expect(scrollWidth, `page ${scrollWidth} px wide at ${width} px`).toBeLessThanOrEqual(width);
};

test.describe('at 390 px in mobile emulation', () => {
  test.use(PHONE_EMULATION);

  test('a "?" tip opens inside the screen and does not widen the page', async ({ page }) => {
    await openWizard(page);
    const about = page.getByRole('button', { name: 'About Editing' });
    await about.click();
    const tip = page.getByRole('tooltip');
    await expect(tip).toBeVisible();
    const box = await tip.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, `tip ${JSON.stringify(box)}`).toBe(true);
    await expectNoSidewaysScroll(page, 390);
    await expectNoAxeViolations(page, 'tip open at 390 px');
    await shoot(page, 'journey-tip');
    await about.click();
    await expect(tip).toBeHidden();
  });

  test('one phone input: country searched with its flag, number formatted as typed', async ({ page }) => {
    await usePhoneInput(page, 390);
  });

  test('the greyed-out Revisions tab says why at 390 px', async ({ page, request }) => {
    await revisionsTabTip(page, request, 390);
  });

  test('the payment step at 390 px', async ({ page, request }) => {
    await payStep(page, request, 390);
  });

  test('the wizard at 390 px: dates, reasons, prices by extras, the title kept, the code in the summary', async ({ page }) => {
    await walkWizard(page, 390);
  });
});

const CHECKOUT = '/order?subject=1&description=Ten%20characters%20at%20least&step=3';

/** The one phone input: a searchable country list with flags, the number formatted as typed. */
const usePhoneInput = async (page: Page, width: number) => {
  await openWizard(page, CHECKOUT, 'Checkout');
  const country = page.getByRole('button', { name: 'Country: United States +1' });
  await expect(country).toBeVisible();
  await country.click();
  await page.getByRole('combobox', { name: 'Search countries' }).fill('united k');
  await expect(page.getByRole('option', { name: /United Kingdom/ })).toBeVisible();
  await expect(page.getByRole('option', { name: /Canada/ })).toHaveCount(0);
  await expectNoSidewaysScroll(page, width);
  await expectNoAxeViolations(page, `country list open at ${width} px`);
  await page.screenshot({ path: `test-results/shots/journey-phone-list-${width}.png` });
  await page.getByRole('option', { name: /United Kingdom/ }).click();
  await expect(page.getByRole('button', { name: 'Country: United Kingdom +44' })).toBeVisible();
  await expect(page.getByLabel('Phone')).toBeFocused();
  await page.getByLabel('Phone').fill('+1 201 555 0123');
  await expect(page.getByRole('button', { name: 'Country: United States +1' })).toBeVisible();
  await expect(page.getByLabel('Phone')).toHaveValue('(201) 555-0123');
  await expectNoSidewaysScroll(page, width);
  await page.screenshot({ path: `test-results/shots/journey-phone-filled-${width}.png` });
};

/** The wizard's three steps as a visitor sees them (issue 27 item 3), with axe and a screenshot of each. */
const walkWizard = async (page: Page, width: number) => {
  await openWizard(page);
  // The visitor's header offers the way in.
  await expect(page.getByRole('banner').getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  // Each deadline shows its moment in the customer's zone.
  await expect(page.getByRole('radio', { name: '10 days' })).toHaveAccessibleDescription(/^by \w{3}, \w{3} \d{1,2}, \d{1,2}:\d\d [AP]M$/);
  await page.getByLabel('Academic level').selectOption({ label: 'PhD' });
  await expect(page.getByRole('radio', { name: '12 hours' })).toHaveAccessibleDescription(
    'Not available at this level: too short for the depth it needs',
  );
  await expectNoAxeViolations(page, `step 1 at ${width} px`);
  await shoot(page, `journey-wizard-step1`);
  await page.getByLabel('Academic level').selectOption({ label: 'High School' });
  await page.getByLabel('Subject').selectOption({ label: 'English' });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(wizardStep(page, 'Instructions')).toBeVisible(WIZARD_WAIT);
  // Each extra with its price beside its box; a short title keeps what was typed, with SPEC's warning.
  await expect(page.getByRole('checkbox', { name: /^Premium writer \+\$\d+\.\d\d$/ })).not.toBeChecked();
  await page.getByLabel('Title').fill('War');
  await page.getByLabel('Title').blur();
  await expect(page.getByLabel('Title')).toHaveValue('War');
  await expect(page.getByText('We will leave the "Title" choice to writer')).toBeVisible();
  await page.getByLabel('Paper details').fill('Three sources, MLA style.');
  await expectNoAxeViolations(page, `step 2 at ${width} px`);
  await shoot(page, `journey-wizard-step2`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(wizardStep(page, 'Checkout')).toBeVisible(WIZARD_WAIT);
  // Checkout opens on the account, says how to come back without a password; the code waits in the summary.
  await expect(page.getByLabel('Discount code')).toHaveCount(0);
  await expect(page.getByText('No password needed: to come back, choose "Email me a sign-in link"')).toBeVisible();
  if (width < 992) await page.getByRole('button', { name: 'Total', exact: true }).click();
  await page.getByRole('button', { name: 'Have a code?' }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  // (Below 992 px the summary is in the bottom bar; the side column's copy is hidden.)
  await expect(page.getByText('Please enter your discount').filter({ visible: true })).toBeVisible();
  await expect(page.getByLabel('Discount code').filter({ visible: true })).not.toHaveAttribute('aria-invalid', 'true');
  await expectNoSidewaysScroll(page, width);
  await expectNoAxeViolations(page, `step 3 at ${width} px`);
  await shoot(page, `journey-wizard-step3`);
};

/** The payment step (issue 27 item 4): marked methods with a line each; the error's Contact Support opens the chat. */
const payStep = async (page: Page, request: APIRequestContext, width: number) => {
  const account = await signUp(request, `journey-pay-${width}`);
  const order = await placeOrder(request, account.accessToken, 'Payment step as seen');
  await openSignedIn(page, account, `/orderinfo/${order.id}/details?pay=1`);
  const chooser = page.getByRole('dialog', { name: 'Choose a payment method' });
  await expect(chooser).toBeVisible({ timeout: 25_000 });
  const first = chooser.getByRole('button', { name: /^Pay \$[\d.]+ with / }).first();
  await expect(first).toHaveAccessibleDescription(/\w/);
  await expectNoSidewaysScroll(page, width);
  await expectNoAxeViolations(page, `payment chooser at ${width} px`);
  await page.screenshot({ path: `test-results/shots/journey-pay-chooser-${width}.png` });
  await page.keyboard.press('Escape');
  await page.goto(`/orderinfo/${order.id}/details?payment=fail`);
  const problem = page.getByRole('dialog', { name: /problem with your payment for order/ });
  await expect(problem).toBeVisible({ timeout: 25_000 });
  await expectNoAxeViolations(page, `payment error at ${width} px`);
  await page.screenshot({ path: `test-results/shots/journey-pay-error-${width}.png` });
  await problem.getByRole('link', { name: 'Contact Support' }).click();
  await expect(page).toHaveURL(new RegExp(`/orderinfo/${order.id}/messages\\?panel=support`));
  await expect(problem).toBeHidden();
  await expect(page.getByRole('tabpanel').getByRole('textbox').first()).toBeVisible({ timeout: 20_000 });
  await page.screenshot({ path: `test-results/shots/journey-pay-support-${width}.png` });
};

/** The greyed-out Revisions tab says why, in a tip that stays on screen (issue 27 item 5). */
const revisionsTabTip = async (page: Page, request: APIRequestContext, width: number) => {
  const account = await signUp(request, `journey-tab-${width}`);
  const order = await placeOrder(request, account.accessToken, 'Revisions tab as seen');
  await openSignedIn(page, account, `/orderinfo/${order.id}/details`);
  const tab = page.getByRole('tab', { name: 'Revisions' });
  await expect(tab).toBeDisabled({ timeout: 25_000 });
  await expect(tab).toHaveAccessibleDescription('Revisions open once the order is completed');
  await tab.hover({ force: true });
  await expect(page.locator('[data-radix-popper-content-wrapper]').getByText('Revisions open once the order is completed')).toBeVisible();
  await expectNoSidewaysScroll(page, width);
  await expectNoAxeViolations(page, `revisions tab tip at ${width} px`);
  await page.screenshot({ path: `test-results/shots/journey-revisions-tab-${width}.png` });
};

test.describe('at 1280 px', () => {
  test('the greyed-out Revisions tab says why', async ({ page, request }) => {
    await revisionsTabTip(page, request, 1280);
  });

  test('the payment step: marked methods, Contact Support opens the support chat', async ({ page, request }) => {
    await payStep(page, request, 1280);
  });

  test('the wizard: dates by each deadline, reasons for greyed options, prices by extras, the title kept, the code in the summary', async ({
    page,
  }) => {
    await walkWizard(page, 1280);
  });

  for (const timezoneId of ['America/Los_Angeles', 'Asia/Kolkata']) {
    test(`a deadline's date is the customer's own in ${timezoneId}`, async ({ browser }) => {
      const context = await browser.newContext({ timezoneId, locale: 'en-US', bypassCSP: true });
      const page = await context.newPage();
      await openWizard(page);
      const hours = await page.evaluate(() => new Date(Date.now() + 240 * 3_600_000));
      const expected = new Intl.DateTimeFormat('en-US', {
        timeZone: timezoneId,
        weekday: 'short',
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      });
      const description = await page.getByRole('radio', { name: '10 days' }).getAttribute('aria-describedby');
      // Within the minute the page and this check read the clock (the date is drawn once hydrated).
      const allowed = [expected.format(hours), expected.format(new Date(hours.getTime() - 60_000))].map((d) => `by ${d}`);
      await expect.poll(() => page.locator(`[id="${description}"]`).textContent()).toMatch(/^by /);
      expect(allowed).toContain(await page.locator(`[id="${description}"]`).textContent());
      await page.screenshot({ path: `test-results/shots/journey-deadline-${timezoneId.replace('/', '-')}-1280.png` });
      await context.close();
    });
  }

  test('one phone input: country searched with its flag, number formatted as typed', async ({ page }) => {
    await usePhoneInput(page, 1280);
  });

  test('a "?" tip opens beside its button, closes on Escape', async ({ page }) => {
    await openWizard(page);
    const about = page.getByRole('button', { name: 'About Editing' });
    await about.focus();
    await page.keyboard.press('Enter');
    const tip = page.getByRole('tooltip');
    await expect(tip).toBeVisible();
    await expectNoSidewaysScroll(page, 1280);
    await page.screenshot({ path: 'test-results/shots/journey-tip-open-1280.png' });
    await page.keyboard.press('Escape');
    await expect(tip).toBeHidden();
    await expect(about).toBeFocused();
  });
});
