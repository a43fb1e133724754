import { continueTo, expect, freshEmail, openWizard, test, wizardStep, wizardTotal, WIZARD_WAIT, expectNoAxeViolations } from './support';

/** SPEC §4 "Form dependencies" as a visitor sees them, and SPEC §4 "persisted locally". */
test.setTimeout(90_000);

test('Presentation counts slides and disables spacing and the one-page summary', async ({ page }) => {
  await openWizard(page);
  await expect(page.getByLabel('Pages', { exact: true })).toBeVisible();
  await page.getByRole('radio', { name: 'Presentation', exact: true }).check();

  await expect(page.getByLabel('Slides', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Pages', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('radio', { name: 'Double', exact: true })).toBeDisabled();
  await expect(page.getByRole('radio', { name: 'Single', exact: true })).toBeDisabled();
  await expect(page.getByRole('radio', { name: 'Double', exact: true })).toBeChecked();
  await expect(page.getByRole('complementary', { name: 'Price' }).getByText('Basic price (1 slide)')).toBeVisible();
  await expectNoAxeViolations(page, 'presentation');

  await page.getByLabel('Subject').selectOption({ label: 'English' });
  await continueTo(page, 'Instructions');
  await expect(page.getByLabel('One-page summary')).toBeDisabled();

  // Back to writing: pages again, spacing and the summary free.
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(wizardStep(page, 'Paper')).toBeVisible();
  await page.getByRole('radio', { name: 'Writing', exact: true }).check();
  await expect(page.getByLabel('Pages', { exact: true })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Single', exact: true })).toBeEnabled();
  await continueTo(page, 'Instructions');
  await expect(page.getByLabel('One-page summary')).toBeEnabled();
});

test('a deadline under 24 hours disables the extra quality check; PhD disables the 24 and 12 hour deadlines', async ({ page }) => {
  await openWizard(page);
  await page.getByLabel('Subject').selectOption({ label: 'English' });
  await page.getByRole('radio', { name: '12 hours', exact: true }).check();
  await continueTo(page, 'Instructions');
  const qualityCheck = page.getByLabel('Extra quality check');
  await expect(qualityCheck).toBeDisabled();
  await expect(qualityCheck).not.toBeChecked();
  await expect(page.getByText('Available for deadlines of 24 hours or more')).toBeVisible();
  await expectNoAxeViolations(page, 'quality check disabled');

  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('radio', { name: '2 days', exact: true }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(qualityCheck).toBeEnabled();
  await qualityCheck.check();

  // A level of 4 or 5 takes the two shortest deadlines away; a chosen one moves to the next longer.
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('radio', { name: '24 hours', exact: true }).check();
  await page.getByLabel('Academic level').selectOption({ label: 'PhD' });
  await expect(page.getByRole('radio', { name: '24 hours', exact: true })).toBeDisabled();
  await expect(page.getByRole('radio', { name: '12 hours', exact: true })).toBeDisabled();
  await expect(page.getByRole('radio', { name: '2 days', exact: true })).toBeChecked();
  await expectNoAxeViolations(page, 'PhD deadlines');
  await page.getByLabel('Academic level').selectOption({ label: 'College' });
  await expect(page.getByRole('radio', { name: '12 hours', exact: true })).toBeEnabled();
});

test('a refresh keeps every field typed and the step, and back returns to the step before', async ({ page }) => {
  await openWizard(page);
  await page.getByLabel('Subject').selectOption({ label: 'Literature' });
  await page.getByLabel('Pages', { exact: true }).fill('4');
  await page.getByRole('radio', { name: '3 days', exact: true }).check();
  await page.getByRole('radio', { name: 'Single', exact: true }).check();
  await continueTo(page, 'Instructions');
  await page.getByLabel('Title').fill('Memory in Modernist Fiction');
  await page.getByLabel('Paper details').fill('Woolf and Proust, 6 sources.');
  await page.getByLabel('Originality report').check();
  await continueTo(page, 'Checkout');
  const email = freshEmail('wizard-refresh');
  await page.getByLabel('Name', { exact: true }).fill('Rita Reload');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone').fill('2015550123');
  await page.getByLabel('I accept the Terms of Use and the Privacy and Cookies Policy').check();
  const before = await wizardTotal(page);
  await expectNoAxeViolations(page, 'step 3 filled, price open');

  await page.reload();
  await expect(wizardStep(page, 'Checkout')).toBeVisible(WIZARD_WAIT);
  await expect(page).toHaveURL(/[?&]step=3/);
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Rita Reload');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByLabel('Phone')).toHaveValue('(201) 555-0123');
  await expect(page.getByLabel('I accept the Terms of Use and the Privacy and Cookies Policy')).toBeChecked();
  expect(await wizardTotal(page)).toBe(before);

  await page.goBack();
  await expect(wizardStep(page, 'Instructions')).toBeVisible(WIZARD_WAIT);
  await expect(page.getByLabel('Title')).toHaveValue('Memory in Modernist Fiction');
  await expect(page.getByLabel('Paper details')).toHaveValue('Woolf and Proust, 6 sources.');
  await expect(page.getByLabel('Originality report')).toBeChecked();
  await page.getByRole('button', { name: 'Back' }).click();
  await expect(wizardStep(page, 'Paper')).toBeVisible();
  await expect(page.getByLabel('Subject').locator('option:checked')).toHaveText('Literature');
  await expect(page.getByLabel('Pages', { exact: true })).toHaveValue('4');
  await expect(page.getByText('2400 words')).toBeVisible();
  await expect(page.getByRole('radio', { name: '3 days', exact: true })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Single', exact: true })).toBeChecked();
});
