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
});

test.describe('at 1280 px', () => {
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
