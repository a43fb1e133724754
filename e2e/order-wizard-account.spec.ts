import {
  closePaymentChooser,
  completeInstructionsStep,
  completePaperStep,
  expect,
  openWizard,
  orderPageTotal,
  signUp,
  test,
  wizardTotal,
  WIZARD_WAIT,
  expectNoAxeViolations,
} from './support';

/** Step 3 for a visitor whose email is already registered (CONTRACT "Identity": checkmail). */
test.setTimeout(90_000);

test('an existing email switches step 3 to log-in, and the order is created after signing in', async ({ page, request }) => {
  // The account is made through the API: this journey is about the wizard, not about sign-up.
  const account = await signUp(request, 'wizard-existing');
  await openWizard(page);
  await completePaperStep(page, { pages: 2 });
  await completeInstructionsStep(page, 'Monetary Policy after 2008');

  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Email').blur();
  await expect(page.getByText('This email is already registered. Maybe you are already a member.')).toBeVisible(WIZARD_WAIT);
  await expect(page.getByRole('radio', { name: 'I have an account' })).toBeChecked();
  await expectNoAxeViolations(page, 'step 3, log-in');
  await expect(page.getByLabel('Email')).toHaveValue(account.email);
  await page.getByLabel('Password').fill(account.password);
  const shown = await wizardTotal(page);
  await page.getByRole('button', { name: 'Create order' }).click();

  await expect(page).toHaveURL(/\/orderinfo\/\d+\/details$/, WIZARD_WAIT);
  await closePaymentChooser(page);
  const id = Number(/\/orderinfo\/(\d+)\//.exec(page.url())?.[1]);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${id}` })).toBeVisible(WIZARD_WAIT);
  await expect(orderPageTotal(page)).toHaveText(shown);
  // The order belongs to the account signed in on step 3: its own token reads it.
  const mine = await request.get(`/api/en/orders/${id}`, { headers: { Authorization: `Bearer ${account.accessToken}` } });
  expect(mine.status()).toBe(200);
});
