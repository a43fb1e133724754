import { writeFileSync } from 'node:fs';
import {
  closePaymentChooser,
  completeInstructionsStep,
  completePaperStep,
  continueTo,
  expect,
  openSignedIn,
  orderPageTotal,
  placeOrderWith,
  signUp,
  test,
  wizardStep,
  wizardTotal,
  WIZARD_WAIT,
  expectNoAxeViolations,
} from './support';

/** SPEC §2 order-form parameters (ADR 0027): editing an unpaid order, cloning an old one, and a big file sent with its progress shown. */
test.setTimeout(120_000);

test('editing an unpaid order changes its pages, and the order page shows the new pages and price', async ({ page, request }) => {
  const account = await signUp(request, 'wizard-edit');
  const { id } = await placeOrderWith(request, account.accessToken, {
    topic: 'Coral Reef Decline',
    pages: 1,
    paperDetails: 'Use sources from 2015 on.',
  });

  await openSignedIn(page, account, `/order?editingOrderId=${id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Edit order #${id}` })).toBeVisible(WIZARD_WAIT);
  await expect(wizardStep(page, 'Paper')).toBeVisible(WIZARD_WAIT);
  await expect(page.getByLabel('Pages', { exact: true })).toHaveValue('1');
  const oldTotal = await wizardTotal(page);
  await expectNoAxeViolations(page, 'editing');
  await page.getByRole('button', { name: 'More pages' }).click();
  await page.getByRole('button', { name: 'More pages' }).click();
  await expect(page.getByLabel('Pages', { exact: true })).toHaveValue('3');
  await expect.poll(() => wizardTotal(page)).not.toBe(oldTotal);
  const newTotal = await wizardTotal(page);
  await continueTo(page, 'Instructions');
  await expect(page.getByLabel('Title')).toHaveValue('Coral Reef Decline');
  await continueTo(page, 'Checkout');
  await page.getByRole('button', { name: 'Update order' }).click();

  await expect(page).toHaveURL(new RegExp(`/orderinfo/${id}/details$`), WIZARD_WAIT);
  await expect(page.getByText('3 (900 words)', { exact: true })).toBeVisible(WIZARD_WAIT);
  await expect(orderPageTotal(page)).toHaveText(newTotal);
});

test('editing an order placed with a discount code shows the price it was charged, the code applied again', async ({ page, request }) => {
  const account = await signUp(request, 'wizard-edit-discount');
  const { id } = await placeOrderWith(request, account.accessToken, {
    topic: 'Wetland Restoration',
    pages: 2,
    paperDetails: 'Use peer-reviewed sources from 2010 on.',
    discountCode: 'WELCOME10',
  });
  const detail = await request.get(`/api/en/orders/${id}`, { headers: { Authorization: `Bearer ${account.accessToken}` } });
  const charged = ((await detail.json()) as { finalPrice: number }).finalPrice;
  expect(charged).toBeGreaterThan(0);

  await openSignedIn(page, account, `/order?editingOrderId=${id}`);
  await expect(page.getByRole('heading', { level: 1, name: `Edit order #${id}` })).toBeVisible(WIZARD_WAIT);
  await expect.poll(() => wizardTotal(page), WIZARD_WAIT).toBe(`$${charged.toFixed(2)}`);
  await continueTo(page, 'Instructions');
  await continueTo(page, 'Checkout');
  await expect(page.getByLabel('Discount code')).toHaveValue('WELCOME10');
  await expect(page.getByText('Your discount has been successfully applied')).toBeVisible();
});

test('cloning an order prefills a new order with its choices', async ({ page, request }) => {
  const account = await signUp(request, 'wizard-clone');
  const { id } = await placeOrderWith(request, account.accessToken, {
    topic: 'Trade Routes of the Hanseatic League',
    paperDetails: 'Chicago style, primary sources welcome.',
    subject: 2,
    pages: 4,
    urgency: 72,
  });

  await openSignedIn(page, account, `/order?cloningOrder=${id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'New Order' })).toBeVisible(WIZARD_WAIT);
  await expect(wizardStep(page, 'Paper')).toBeVisible(WIZARD_WAIT);
  await expect(page.getByLabel('Subject').locator('option:checked')).toHaveText('Literature');
  await expect(page.getByLabel('Pages', { exact: true })).toHaveValue('4');
  await expect(page.getByRole('radio', { name: '3 days', exact: true })).toBeChecked();
  await continueTo(page, 'Instructions');
  await expect(page.getByLabel('Title')).toHaveValue('Trade Routes of the Hanseatic League');
  await expect(page.getByLabel('Paper details')).toHaveValue('Chicago style, primary sources welcome.');
  await continueTo(page, 'Checkout');
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page).toHaveURL(/\/orderinfo\/\d+\/details$/, WIZARD_WAIT);
  await closePaymentChooser(page);
  // A clone is a new order: the old one stays as it was.
  expect(Number(/\/orderinfo\/(\d+)\//.exec(page.url())?.[1])).not.toBe(id);
});

test('a 20 MB file uploads with a visible progress bar and is listed on the Files tab', async ({ page, request }, testInfo) => {
  const account = await signUp(request, 'wizard-upload');
  // Generated here, never committed: a PDF header (the server checks the signature) and 20 MB of body.
  const name = 'thesis-draft.pdf';
  const file = testInfo.outputPath(name);
  const body = Buffer.alloc(20 * 1024 * 1024, 0x20);
  body.write('%PDF-1.4\n', 0, 'latin1');
  body.write('\n%%EOF\n', body.length - 7, 'latin1');
  writeFileSync(file, body);

  await openSignedIn(page, account, '/order');
  await expect(wizardStep(page, 'Paper')).toBeVisible(WIZARD_WAIT);
  await completePaperStep(page);
  await page.getByLabel('Attach files').setInputFiles(file);
  await expect(page.getByRole('list', { name: 'Attached files' })).toContainText(name);
  // Checked before the upload: axe-core takes longer than the held upload, which the journey times.
  await expectNoAxeViolations(page, 'file attached');
  await completeInstructionsStep(page, 'Thesis chapter review', '');

  // Localhost would send 20 MB in a blink: the upload is held to 8 MB/s so the bar can be seen moving.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 8 * 1024 * 1024,
  });

  await page.getByRole('button', { name: 'Create order' }).click();
  const bar = page.getByRole('progressbar', { name: `Uploading ${name}` });
  await expect(bar).toBeVisible(WIZARD_WAIT);
  const midway = await page.waitForFunction(
    (label) => {
      const progress = document.querySelector<HTMLProgressElement>(`progress[aria-label="${label}"]`);
      return progress && progress.value > 0 && progress.value < 100 ? progress.value : null;
    },
    `Uploading ${name}`,
    { polling: 'raf', timeout: 25_000 },
  );
  expect(await midway.jsonValue()).toBeGreaterThan(0);

  await expect(page).toHaveURL(/\/orderinfo\/\d+\/details$/, { timeout: 60_000 });
  await closePaymentChooser(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await page.getByRole('tab', { name: 'Files' }).click();
  const yours = page.getByRole('region', { name: 'Your files' });
  await expect(yours.getByText(name).first()).toBeVisible(WIZARD_WAIT);
});
