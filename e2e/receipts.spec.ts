import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { expect, expectNoAxeViolations, freshEmail, openSignedIn, placeOrder, shoot, signUp, SLOW, test, type Tokens } from './support';

/**
 * Issue 24 (ADR 0085): a receipt downloaded from /transactions and its text read back; the year's ZIP;
 * and the Terms dialog that asks a customer who has not accepted the current versions.
 */

// A sign-up, a payment, two downloads and screenshots at two widths: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 120_000 });

/** Pays an order through the Fondy sandbox as the browser would (the redirect, then the sandbox's Pay). */
const payInSandbox = async (request: APIRequestContext, uid: string): Promise<void> => {
  const checkout = await request.get(`/checkout/fondy/order/${uid}?hashDevice=e2e-${randomBytes(4).toString('hex')}`, { maxRedirects: 0 });
  expect(checkout.status()).toBe(302);
  const sandbox = new URL(String(checkout.headers().location), 'http://x').pathname;
  const paid = await request.post(`${sandbox}/pay`, { maxRedirects: 0 });
  expect(paid.status()).toBe(303);
};

const pdfText = async (bytes: Uint8Array): Promise<string> => {
  const pdf = await getDocument({ data: bytes, verbosity: 0 }).promise;
  const content = await (await pdf.getPage(1)).getTextContent();
  const text = content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
  await pdf.destroy();
  return text.replace(/\s+/g, ' ');
};

test('downloads the receipt of a payment from /transactions and reads it back; the year as a ZIP', async ({ page }) => {
  const account = await signUp(page.request, 'receipt');
  const auth = { Authorization: `Bearer ${account.accessToken}` };
  const billing = await page.request.put('/api/en/customers/customer/billing', {
    headers: auth,
    data: { name: 'Erin Tester', company: 'Receipts & Co', taxId: 'IE9876543X', address: '5 Harbour Road\nCork' },
  });
  expect(billing.status()).toBe(200);
  const title = `Receipted ${Date.now()}`;
  const order = await placeOrder(page.request, account.accessToken, title);
  await payInSandbox(page.request, order.uid);

  await openSignedIn(page, account, '/transactions');
  const table = page.getByRole('table', { name: 'Your payments and refunds' });
  const row = table.getByRole('row').filter({ hasText: title });
  const button = row.getByRole('button', { name: /^Download receipt R-\d{6} \(PDF\)$/ });
  await expect(button).toBeVisible(SLOW);
  const number = ((await button.textContent()) ?? '').trim();
  expect(number).toMatch(/^R-\d{6}$/);
  await expectNoAxeViolations(page, 'transactions with receipts');
  await shoot(page, 'transactions-receipts');

  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe(`receipt-${number}.pdf`);
  const bytes = new Uint8Array(await readFile((await download.path()) ?? ''));
  const text = await pdfText(bytes);
  for (const expected of [
    'Receipt',
    `No. ${number}`,
    'Erin Tester',
    'Receipts & Co',
    'Tax ID: IE9876543X',
    'Cork',
    `Order #${order.id}: ${title}`,
    'Amount paid',
    'Paid with Fondy',
  ])
    expect(text).toContain(expected);

  const year = new Date().getUTCFullYear();
  await expect(page.getByLabel('All receipts of')).toHaveValue(String(year));
  const [zip] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download ZIP' }).click()]);
  expect(zip.suggestedFilename()).toBe(`receipts-${year}.zip`);
  const archive = await readFile((await zip.path()) ?? '');
  expect(archive.subarray(0, 2).toString()).toBe('PK');
  expect(archive.includes(Buffer.from(`receipt-${number}.pdf`))).toBe(true);
});

test('asks a customer who has not accepted the current Terms, records the acceptance, and asks no more', async ({ page }) => {
  // Signed up without the terms box (an API client, or Terms published since): no acceptance on record.
  const email = freshEmail('terms');
  const signed = await page.request.post('/api/en/auth/jwt/sign_up', {
    data: { email, password: `pw-${randomBytes(6).toString('hex')}`, firstName: 'Tess', lastName: 'Terms', phone: '15551234567' },
  });
  expect(signed.status()).toBe(200);
  const tokens = (await signed.json()) as Tokens;
  await openSignedIn(page, tokens, '/dashboard');

  const dialog = page.getByRole('dialog', { name: 'We have updated our Terms of Use and Privacy Policy' });
  await expect(dialog).toBeVisible(SLOW);
  await expect(dialog.getByRole('link', { name: 'Terms of Use' })).toHaveAttribute('href', '/terms');
  await expect(dialog.getByRole('button', { name: 'Close' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'terms dialog');
  await shoot(page, 'terms-dialog');

  await dialog.getByRole('button', { name: 'I accept' }).click();
  await expect(dialog).toBeHidden();
  const status = await page.request.get('/api/en/customers/terms', { headers: { Authorization: `Bearer ${tokens.accessToken}` } });
  expect(((await status.json()) as { accepted: boolean }).accepted).toBe(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible(SLOW);
  await expect(dialog).toHaveCount(0);
});
