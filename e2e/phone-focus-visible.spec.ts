import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, freshEmail, openWizard, shoot, test, wizardStep, WIZARD_WAIT } from './support';

/**
 * ADR 0042, WCAG 2.2 SC 2.4.11 "Focus not obscured": at 390 px (phone project) the sticky header and
 * the wizard's fixed price bar never cover the control that has the focus. Every Tab stop of the three
 * steps is checked: its box must not overlap the header's box or the bar's box.
 */
test.setTimeout(120_000);

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/** The focused element's box against the header's and the bar's (elements inside them are theirs). */
const focusReport = (page: Page) =>
  page.evaluate(() => {
    const box = (el: Element): Box => {
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    };
    const focused = document.activeElement;
    const header = document.querySelector('header');
    const bar = document.querySelector('[data-testid="price-bar"]');
    if (!focused || focused === document.body) return null;
    if (header?.contains(focused) || bar?.contains(focused)) return null;
    // A visually hidden input (the file picker) draws its focus on its label.
    const shown = focused.classList.contains('sr-only') ? (focused.closest('label') ?? focused) : focused;
    const name = `${focused.tagName.toLowerCase()} ${focused.getAttribute('aria-label') ?? focused.getAttribute('name') ?? focused.textContent?.trim().slice(0, 40) ?? ''}`;
    return { name, focused: box(shown), header: header ? box(header) : null, bar: bar ? box(bar) : null };
  });

const overlaps = (a: Box, b: Box) => a.top < b.bottom && a.bottom > b.top && a.left < b.right && a.right > b.left;

/** Tabs through the open step up to `until` and checks every stop. */
const tabThroughStep = async (page: Page, until: RegExp) => {
  const seen: string[] = [];
  for (let i = 0; i < 80; i += 1) {
    await page.keyboard.press('Tab');
    const report = await focusReport(page);
    if (!report) continue;
    seen.push(report.name);
    if (report.header) expect(overlaps(report.focused, report.header), `${report.name} under the header`).toBe(false);
    if (report.bar) expect(overlaps(report.focused, report.bar), `${report.name} under the price bar`).toBe(false);
    if (until.test(report.name)) return seen;
  }
  throw new Error(`never reached ${until}: ${seen.join(' | ')}`);
};

test('at 390 px no focused control of the wizard is hidden by the header or the price bar', async ({ page }) => {
  expect(page.viewportSize()?.width).toBe(390);
  await openWizard(page);
  await expect(page.getByTestId('price-bar')).toBeVisible();

  await page.getByLabel('Subject').selectOption({ label: 'English' });
  await page.getByRole('heading', { level: 1 }).focus();
  const step1 = await tabThroughStep(page, /Continue/);
  expect(step1.length).toBeGreaterThan(10);
  // Back up through the step too: the header must not cover what the focus meets going up.
  for (let i = 0; i < step1.length; i += 1) {
    await page.keyboard.press('Shift+Tab');
    const report = await focusReport(page);
    if (report?.header) expect(overlaps(report.focused, report.header), `${report.name} under the header`).toBe(false);
  }
  await page.getByRole('button', { name: 'Continue' }).press('Enter');
  await expect(wizardStep(page, 'Instructions')).toBeVisible(WIZARD_WAIT);
  await page.getByLabel('Title').fill('Focus That Stays in Sight');
  await page.getByLabel('Paper details').fill('Three sources, MLA style.');
  await page.getByLabel('Title').focus();
  const step2 = await tabThroughStep(page, /Continue/);
  expect(step2.some((name) => name.includes('Originality report') || name.startsWith('input'))).toBe(true);
  await page.getByRole('button', { name: 'Continue' }).press('Enter');
  await expect(wizardStep(page, 'Checkout')).toBeVisible(WIZARD_WAIT);
  await page.getByLabel('Email').fill(freshEmail('focus-visible'));
  await page.getByRole('heading', { level: 2 }).focus();
  await tabThroughStep(page, /Create order/);
  await shoot(page, 'phone-focus-create-order');
});

test('the info tooltip stays inside a 320 and a 390 px screen and closes on Escape', async ({ page }) => {
  for (const width of [390, 320]) {
    await page.setViewportSize({ width, height: 720 });
    await openWizard(page);
    const about = page.getByRole('button', { name: 'About Editing' });
    await about.focus();
    await page.keyboard.press('Enter');
    const tip = page.getByRole('tooltip');
    await expect(tip).toBeVisible();
    const box = await tip.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= width, `tooltip ${JSON.stringify(box)} within ${width} px`).toBe(true);
    await expectNoAxeViolations(page, `tooltip open at ${width} px`);
    await shoot(page, `phone-tooltip-${width}`);
    await page.keyboard.press('Escape');
    await expect(tip).toBeHidden();
  }
});
