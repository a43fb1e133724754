import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, openWizard, shoot, test } from './support';

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

test.describe('at 1280 px', () => {
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
