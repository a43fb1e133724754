import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, freshEmail, openWizard, shoot, tabTo, test, WIZARD_WAIT } from './support';

/**
 * ADR 0042: a visitor orders an essay with the keyboard alone (Tab, Shift+Tab, Enter, Space, arrows and
 * typing; no click anywhere), and axe-core finds nothing on each step, with its errors and its tooltip.
 */
test.setTimeout(120_000);

const liveRegion = (page: Page) => page.getByTestId('live-region');

test('a visitor orders with the keyboard only; each step takes the focus on its heading and is announced', async ({ page }) => {
  // Once the app has taken the server's page over (openWizard): in the moment between, CI's axe once found
  // neither the main landmark nor the heading.
  await openWizard(page);
  await expect(page).toHaveTitle('New Order · Writing Service');
  await expectNoAxeViolations(page, 'step 1');

  // The Editing tooltip: opened with Enter, kept on screen, closed with Escape (WCAG 1.4.13).
  const about = page.getByRole('button', { name: 'About Editing' });
  await tabTo(page, about);
  await page.keyboard.press('Enter');
  const tip = page.getByRole('tooltip');
  await expect(tip).toBeVisible();
  await expectNoAxeViolations(page, 'step 1, tooltip open');
  await page.keyboard.press('Escape');
  await expect(tip).toBeHidden();
  await expect(about).toBeFocused();

  // Continue without a subject: the error, the focus on the subject, no step change.
  const next = page.getByRole('button', { name: 'Continue' });
  await tabTo(page, next);
  await page.keyboard.press('Enter');
  const subject = page.getByLabel('Subject');
  await expect(subject).toBeFocused();
  await expect(subject).toHaveAccessibleDescription('Choose the required "Subject"');
  await expectNoAxeViolations(page, 'step 1 with its error');
  await page.keyboard.press('ArrowDown');
  await expect(subject).not.toHaveValue('');
  await expect(subject).not.toHaveAccessibleDescription(/./);

  await tabTo(page, next);
  await page.keyboard.press('Enter');
  const step2 = page.getByRole('heading', { level: 2, name: 'Step 2 of 3: Instructions' });
  await expect(step2).toBeFocused(WIZARD_WAIT);
  await expect(liveRegion(page)).toHaveText('Step 2 of 3: Instructions');

  // Tabbing through the empty fields says nothing; Continue does.
  const title = page.getByLabel('Title');
  const details = page.getByLabel('Paper details');
  await tabTo(page, title);
  await page.keyboard.press('Tab');
  await expect(details).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(details).not.toHaveAccessibleDescription(/./);
  await expect(page.getByText('Fill out either "Paper Details" or "File(s)" field')).toHaveCount(0);
  await tabTo(page, next);
  await page.keyboard.press('Enter');
  await expect(details).toBeFocused();
  await expect(details).toHaveAccessibleDescription('Fill out either "Paper Details" or "File(s)" field');
  await expectNoAxeViolations(page, 'step 2 with its error');
  await page.keyboard.type('Two case studies, APA style, a short conclusion.');
  await tabTo(page, title, { shift: true });
  await page.keyboard.type('Keyboard Access in Public Services');
  await tabTo(page, page.getByLabel('Originality report'));
  await page.keyboard.press('Space');
  await expect(page.getByLabel('Originality report')).toBeChecked();

  await tabTo(page, next);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: 'Step 3 of 3: Checkout' })).toBeFocused(WIZARD_WAIT);
  await expect(liveRegion(page)).toHaveText('Step 3 of 3: Checkout');
  await expectNoAxeViolations(page, 'step 3');

  // Tabbing through the empty account fields shows no error either.
  const name = page.getByLabel('Name', { exact: true });
  await tabTo(page, name);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.getByText('Invalid email address.')).toHaveCount(0);
  await expect(name).not.toHaveAccessibleDescription(/./);

  const create = page.getByRole('button', { name: 'Create order' });
  await tabTo(page, create);
  await page.keyboard.press('Enter');
  await expect(name).toBeFocused();
  await expect(name).toHaveAccessibleDescription(/./);
  await expectNoAxeViolations(page, 'step 3 with its errors');

  await page.keyboard.type('Kim Keyboard');
  await tabTo(page, page.getByLabel('Email'));
  await page.keyboard.type(freshEmail('keyboard'));
  await tabTo(page, page.getByLabel('Phone'));
  await page.keyboard.type('2015550123');
  await expect(page.getByLabel('Phone')).toHaveValue('(201) 555-0123');
  const terms = page.getByLabel('I accept the Terms of Use and the Privacy and Cookies Policy');
  await tabTo(page, terms);
  await page.keyboard.press('Space');
  await expect(terms).toBeChecked();
  await shoot(page, 'keyboard-order-step-3');
  await tabTo(page, create);
  await page.keyboard.press('Enter');

  // The order page: the payment chooser opens at once (ADR 0023); Escape closes it.
  await expect(page).toHaveURL(/\/orderinfo\/\d+\/details$/, WIZARD_WAIT);
  const id = /\/orderinfo\/(\d+)\//.exec(page.url())?.[1];
  const chooser = page.getByRole('dialog', { name: 'Choose a payment method' });
  await expect(chooser).toBeVisible(WIZARD_WAIT);
  await expectNoAxeViolations(page, 'payment chooser open');
  await page.keyboard.press('Escape');
  await expect(chooser).toBeHidden();
  await expect(page).toHaveTitle(`Order #${id} · Writing Service`);
  await expect(liveRegion(page)).toHaveText(`Order #${id}`);
  await expectNoAxeViolations(page, 'order page');
});
