import {
  closePaymentChooser,
  completeInstructionsStep,
  continueTo,
  expect,
  freshEmail,
  openWizard,
  orderPageTotal,
  test,
  wizardTotal,
  WIZARD_WAIT,
  expectNoAxeViolations,
} from './support';

/**
 * A visitor from an ad orders on a phone (the 'phone' project, 390 px wide),
 * signing up on step 3, and lands on the order page showing the price the wizard showed.
 */
test.setTimeout(90_000);

test('a new visitor orders an essay end to end on a 390 px wide screen', async ({ page }) => {
  expect(page.viewportSize()?.width).toBe(390);
  await openWizard(page);

  await page.getByRole('radio', { name: 'Essay', exact: true }).check();
  await page.getByLabel('Type of paper').selectOption({ label: 'Essay (any type)' });
  await page.getByLabel('Subject').selectOption({ label: 'English' });
  await page.getByRole('button', { name: 'More pages' }).click();
  await page.getByRole('button', { name: 'More pages' }).click();
  await expect(page.getByLabel('Pages', { exact: true })).toHaveValue('3');
  await expect(page.getByText('900 words')).toBeVisible();
  await expectNoAxeViolations(page, 'step 1');
  await page.getByRole('radio', { name: '5 days', exact: true }).check();
  await continueTo(page, 'Instructions');

  await completeInstructionsStep(page, 'The Role of Bees in Urban Ecosystems');

  const email = freshEmail('phone-visitor');
  await expect(page.getByRole('radio', { name: "I'm new" })).toBeChecked();
  await page.getByLabel('Name', { exact: true }).fill('Nora Newcomer');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Phone').click();
  await page.getByLabel('Phone').pressSequentially('2015550123');
  await expect(page.getByLabel('Phone')).toHaveValue('(201) 555-0123');
  await page.getByLabel('I accept the Terms of Use and the Privacy and Cookies Policy').check();
  const shown = await wizardTotal(page);
  await expectNoAxeViolations(page, 'step 3, price details open');

  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page).toHaveURL(/\/orderinfo\/\d+\/details$/, WIZARD_WAIT);
  await closePaymentChooser(page);
  const id = /\/orderinfo\/(\d+)\//.exec(page.url())?.[1];
  await expect(page.getByRole('heading', { level: 1, name: `Order #${id}` })).toBeVisible(WIZARD_WAIT);
  await expect(page.getByText('The Role of Bees in Urban Ecosystems').first()).toBeVisible();
  await expect(page.getByText('3 (900 words)', { exact: true })).toBeVisible();
  await expect(orderPageTotal(page)).toHaveText(shown);
});
