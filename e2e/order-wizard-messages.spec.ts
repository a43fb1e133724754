import {
  continueTo,
  completeInstructionsStep,
  completePaperStep,
  expect,
  openSignedIn,
  openWizard,
  signUp,
  test,
  wizardStep,
  wizardTotal,
  WIZARD_WAIT,
  expectNoAxeViolations,
} from './support';

/** Every SPEC §5 message of the wizard, next to its field, and the SPEC §8 discount messages. */
test.setTimeout(90_000);

const FORMATS = 'txt, zip, doc, docx, xls, xlsx, rtf, jpeg, png, gif, ppt, pptx, csv, pdf, jpg, odt, rar, zipx, 7z, gz, gzip, tar, tar-gz';

test('each SPEC §5 message appears beside the field it is about', async ({ page }) => {
  await openWizard(page);

  // Step 1: Continue without a subject.
  await page.getByRole('button', { name: 'Continue' }).click();
  const subject = page.getByLabel('Subject');
  await expect(subject).toHaveAccessibleDescription('Choose the required "Subject"');
  await expect(subject).toBeFocused();
  await expectNoAxeViolations(page, 'step 1 with its error');
  await completePaperStep(page);

  // Step 2: a short title gets its warning; what was typed stays (it is sent as Writer's Choice, issue 27).
  const title = page.getByLabel('Title');
  await title.fill('Bee');
  await title.blur();
  await expect(title).toHaveValue('Bee');
  await expect(title).toHaveAccessibleDescription('We will leave the "Title" choice to writer');

  const details = page.getByLabel('Paper details');
  await details.fill('Too short');
  await details.blur();
  await expect(details).toHaveAccessibleDescription('Min: 10 characters');
  await details.fill('');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(details).toHaveAccessibleDescription('Fill out either "Paper Details" or "File(s)" field');
  await expect(wizardStep(page, 'Instructions')).toBeVisible();
  await expectNoAxeViolations(page, 'step 2 with its errors');

  const files = page.getByLabel('Attach files');
  await files.setInputFiles({ name: 'setup.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ not a paper') });
  // ADR 0096: the drop zone's Browse button carries the field's messages (the input is hidden).
  await expect(page.getByRole('button', { name: 'Attach files' })).toHaveAccessibleDescription(
    new RegExp(`setup\\.exe: Invalid file format\\. Acceptable file formats: ${FORMATS}`),
  );
  await expect(page.getByRole('list', { name: 'Attached files' })).toHaveCount(0);
  await expectNoAxeViolations(page, 'file refused');

  await details.fill('Please compare two pollination studies.');
  await continueTo(page, 'Checkout');

  // Step 3: the discount (behind "Have a code?" in the price summary), then Create with the account part empty or wrong.
  await page.getByRole('button', { name: 'Have a code?' }).click();
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByLabel('Discount code')).toHaveAccessibleDescription('Please enter your discount');
  await expectNoAxeViolations(page, 'step 3, discount error');

  await page.getByLabel('Name', { exact: true }).fill('Nora Newcomer');
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page.getByText('Please accept the Terms of Use, Privacy Cookies Policy')).toBeVisible();
  const email = page.getByLabel('Email');
  await email.fill('nora@');
  await email.blur();
  await expect(email).toHaveAccessibleDescription('Invalid email address.');
  const phone = page.getByLabel('Phone');
  await phone.fill('20155');
  await phone.blur();
  await expect(phone).toHaveAccessibleDescription('You may have entered invalid phone number. Kindly consider revising.');
  await expectNoAxeViolations(page, 'step 3 with its errors');
  // Nothing was created: the wizard is still on step 3.
  await expect(page).toHaveURL(/\/order\?/);
});

test('WELCOME10 lowers the price; TOPWRITER20 asks for the Top Writer feature until it is on', async ({ page, request }) => {
  const account = await signUp(request, 'wizard-discount');
  await openSignedIn(page, account, '/order');
  await expect(wizardStep(page, 'Paper')).toBeVisible(WIZARD_WAIT);
  await completePaperStep(page, { pages: 2 });
  await completeInstructionsStep(page, 'Urban Heat Islands and Public Health');
  const full = await wizardTotal(page);
  const cents = (usd: string) => Math.round(Number(usd.replace(/[$,]/g, '')) * 100);

  await page.getByRole('button', { name: 'Have a code?' }).click();
  const code = page.getByLabel('Discount code');
  await code.fill('WELCOME10');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Your discount has been successfully applied')).toBeVisible(WIZARD_WAIT);
  await expectNoAxeViolations(page, 'discount applied');
  await expect.poll(async () => cents(await wizardTotal(page))).toBeLessThan(cents(full));

  await code.fill('TOPWRITER20');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByText('Please enable Top Writer feature to use this discount')).toBeVisible(WIZARD_WAIT);
  await expectNoAxeViolations(page, 'discount refused');
  await expect.poll(() => wizardTotal(page)).toBe(full);

  // With a premium writer chosen on step 2 the code counts at once, and its message is gone.
  await page.getByRole('button', { name: /Step 2/ }).click();
  await page.getByRole('checkbox', { name: /^Premium writer/ }).check();
  const column = page.getByRole('complementary', { name: 'Price' });
  const premiumRow = column
    .getByRole('term')
    .filter({ hasText: /^Premium writer$/ })
    .locator('xpath=following-sibling::dd[1]');
  await expect(premiumRow).toHaveText(/^\$\d/);
  const undiscounted = cents(full) + cents((await premiumRow.textContent()) ?? '');
  await expect(column.getByRole('term').filter({ hasText: /^Discount$/ })).toBeVisible();
  await expect.poll(async () => cents(await wizardTotal(page))).toBeLessThan(undiscounted);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(wizardStep(page, 'Checkout')).toBeVisible();
  await expect(page.getByText('Please enable Top Writer feature to use this discount')).toHaveCount(0);
});
