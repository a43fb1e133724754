import { completeInstructionsStep, completePaperStep, expect, openWizard, shoot, test, wizardStep, WIZARD_WAIT } from './support';

// ADR 0040 and 0041, through the real `npm start`: the address the README gives opens the app, the first
// step paints from the data the page brings, nothing the CSP refuses, real 404s, the terms pages.
test.setTimeout(90_000);

test('/ answers 200 with the app and opens the wizard for a visitor (it was 403)', async ({ page, request }) => {
  const res = await request.get('/');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('text/html');
  expect((await request.head('/')).status()).toBe(200);

  await page.goto('/');
  await expect(page).toHaveURL(/\/order$/);
  await expect(page.getByRole('heading', { level: 1, name: 'New Order' })).toBeVisible(WIZARD_WAIT);
});

test('/order draws step 1 without asking the API for settings or catalogues, and the console stays clean', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  // What the CSP refuses reaches the console as a browser message, not a console call: listen in the page.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP refused ${event.blockedURI} (${event.violatedDirective})`);
    });
  });
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' && /\/api\/en\/(sites|orders\/\w+_levels)/.test(request.url()))
      asked.push(new URL(request.url()).pathname);
  });

  await openWizard(page);
  await expect(wizardStep(page, 'Paper').getByLabel('Subject')).toBeVisible();
  expect(asked).toEqual([]);
  // The deferred response checks (zod) run once the page is idle, the later steps' code on the first
  // input: both happen here, and neither may trip the CSP (zod's `new Function` probe did).
  await completePaperStep(page);
  await page.waitForTimeout(5_500);
  expect(problems).toEqual([]);
});

test('an unknown address answers 404 with the app’s "Page not found"', async ({ page, request }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  expect((await request.get('/orderinfo/1/details')).status()).toBe(200);
  const robots = await request.get('/robots.txt');
  expect(await robots.text()).toContain('Disallow: /dashboard');
});

test('the terms checkbox links the Terms and Privacy pages in a new tab; nothing typed is lost', async ({ page, context }) => {
  await openWizard(page);
  await completePaperStep(page);
  await completeInstructionsStep(page, 'Terms in a new tab');
  await page.getByLabel('Email').fill('reader@example.com');

  const terms = page.getByRole('link', { name: 'Terms of Use' });
  await expect(terms).toHaveAttribute('target', '_blank');
  const [termsTab] = await Promise.all([context.waitForEvent('page'), terms.click()]);
  await expect(termsTab).toHaveURL(/\/terms$/);
  await expect(termsTab.getByRole('heading', { level: 1, name: 'Terms of Use' })).toBeVisible();
  await termsTab.close();

  const [privacyTab] = await Promise.all([
    context.waitForEvent('page'),
    page.getByRole('link', { name: 'Privacy and Cookies Policy' }).click(),
  ]);
  await expect(privacyTab.getByRole('heading', { level: 1, name: 'Privacy and Cookies Policy' })).toBeVisible();
  await privacyTab.close();

  await expect(wizardStep(page, 'Checkout')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveValue('reader@example.com');
  await expect(page.getByLabel('I accept the Terms of Use and the Privacy and Cookies Policy')).not.toBeChecked();
  await shoot(page, 'checkout-terms-links');
});
