import type { Page } from '@playwright/test';
import {
  type Account,
  completeInstructionsStep,
  completePaperStep,
  expect,
  expectNoAxeViolations,
  freshEmail,
  openSignedIn,
  openWizard,
  placeOrder,
  shoot,
  signUp,
  SLOW,
  test,
} from './support';

/**
 * SPEC §4 "Payment flow" journeys (ADR 0023, 0024): paying an order through each provider's sandbox (CONTRACT "Payments": no
 * credentials, so every provider runs in sandbox mode), a declined payment and the alternative method,
 * and a forged callback.
 */
// The machine running the journeys is shared and slow to serve the first lazy chunks: generous waits.
test.setTimeout(120_000);

const PROVIDERS = [
  { provider: 'paycore', name: 'Card (paycore.io)' },
  { provider: 'paypal', name: 'PayPal' },
  { provider: 'fondy', name: 'Fondy' },
  { provider: 'paymentwall', name: 'Paymentwall' },
] as const;

/** A fresh customer with one unpaid order, signed in on that order's page. */
const customerWithUnpaidOrder = async (page: Page, account: Account, title: string) => {
  const order = await placeOrder(page.request, account.accessToken, title);
  await openSignedIn(page, account, `/orderinfo/${order.id}/details`);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${order.id}` })).toBeVisible(SLOW);
  return order;
};

const statusSection = (page: Page) => page.getByRole('region', { name: 'Status', exact: true });

const REDIRECT_NOTICE = 'Please wait for redirect to payment system...';

/**
 * The sandbox answers the redirect faster than a test can look, so each page of the journey records
 * in sessionStorage (same origin, it survives the redirect) that the notice was on it.
 */
const watchRedirectNotice = (page: Page) =>
  page.addInitScript((text) => {
    new MutationObserver(() => {
      if (document.body?.textContent?.includes(text)) sessionStorage.setItem('redirectNoticeSeen', 'yes');
    }).observe(document, { subtree: true, childList: true, characterData: true });
  }, REDIRECT_NOTICE);

const redirectNoticeSeen = (page: Page) => page.evaluate(() => sessionStorage.getItem('redirectNoticeSeen'));

/** Pay on the order page, then the provider in the chooser (the demo site allows all four, multipayment on). */
const payWith = async (page: Page, providerName: string) => {
  await statusSection(page)
    .getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ })
    .click();
  const chooser = page.getByRole('dialog', { name: 'Choose a payment method' });
  await expect(chooser).toBeVisible();
  await expectNoAxeViolations(page, 'payment chooser');
  await chooser.getByRole('button', { name: new RegExp(`with ${providerName.replace(/[().]/g, '\\$&')}$`) }).click();
  await page.waitForURL(/\/sandbox\//, SLOW);
  expect(await redirectNoticeSeen(page), REDIRECT_NOTICE).toBe('yes');
};

for (const { provider, name } of PROVIDERS) {
  test(`pays an order with ${name} in its sandbox, and sees it paid on the order, the dashboard and /transactions`, async ({ page }) => {
    await watchRedirectNotice(page);
    const account = await signUp(page.request, `pay-${provider}`);
    const title = `Paid with ${name}`;
    const order = await customerWithUnpaidOrder(page, account, title);

    await payWith(page, name);
    await expect(page).toHaveURL(new RegExp(`/sandbox/${provider}/`), SLOW);
    await expect(page.getByRole('heading', { name: `${name} sandbox` })).toBeVisible();
    await expectNoAxeViolations(page, 'sandbox');
    await expect(page.getByText(`#${order.id}`)).toBeVisible();
    await page.getByRole('button', { name: /^Pay \$/ }).click();

    // Back on the order page: confirmed, shown paid, and the parameter gone from the address bar.
    await expect(page).toHaveURL(new RegExp(`/orderinfo/${order.id}/details$`), SLOW);
    await expect(page.getByText('Thank you, your payment has been received')).toBeVisible();
    await expect(statusSection(page).getByText('Paid', { exact: true })).toBeVisible();
    await expect(statusSection(page).getByRole('button', { name: /^Pay/ })).toHaveCount(0);
    await expectNoAxeViolations(page, 'paid');

    await page.getByRole('link', { name: 'All Orders' }).click();
    const card = page.getByRole('article', { name: new RegExp(`Order #${order.id}:`) });
    await expect(card.getByText('Paid', { exact: true })).toBeVisible(SLOW);
    await expect(card.getByRole('button', { name: /^Pay/ })).toHaveCount(0);

    await page.getByRole('link', { name: 'Transactions' }).click();
    const row = page.getByRole('table', { name: 'Your payments and refunds' }).getByRole('row').filter({ hasText: title });
    await expect(row).toHaveCount(1, SLOW);
    await expect(row).toContainText(name);
    await expect(row).toContainText('Payment');
    // ADR 0036: a sandbox payment moved no money, and the list says so.
    await expect(row.getByText('Sandbox', { exact: true })).toBeVisible();
    await expect(row.getByRole('link', { name: new RegExp(`#${order.id}`) })).toHaveAttribute('href', `/orderinfo/${order.id}/details`);
    await expectNoAxeViolations(page, 'transactions');
    if (provider === 'fondy') await shoot(page, 'transactions-sandbox');
  });
}

test('shows the payment error modal after a decline, and the alternative method then pays', async ({ page }) => {
  await watchRedirectNotice(page);
  const account = await signUp(page.request, 'pay-declined');
  const order = await customerWithUnpaidOrder(page, account, 'Declined first, then paid');

  await payWith(page, 'Paymentwall');
  await expect(page).toHaveURL(/\/sandbox\/paymentwall\//, SLOW);
  await page.getByRole('button', { name: 'Decline' }).click();

  const modal = page.getByRole('dialog', { name: `Looks like there's been a problem with your payment for order #${order.id}` });
  await expect(modal).toBeVisible(SLOW);
  await expect(modal.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', /^\/orderinfo\/\d+\/messages\?panel=support$/);
  await shoot(page, 'payment-error-modal');
  await expectNoAxeViolations(page, 'payment error dialog');
  await modal.getByRole('button', { name: 'Choose alternative payment method' }).click();

  const chooser = page.getByRole('dialog', { name: 'Choose a payment method' });
  await expect(chooser).toBeVisible();
  await chooser.getByRole('button', { name: /with Fondy$/ }).click();
  await expect(page).toHaveURL(/\/sandbox\/fondy\//, SLOW);
  await page.getByRole('button', { name: /^Pay \$/ }).click();

  await expect(page).toHaveURL(new RegExp(`/orderinfo/${order.id}/details$`), SLOW);
  await expect(statusSection(page).getByText('Paid', { exact: true })).toBeVisible();
  await page.goto('/transactions');
  const rows = page
    .getByRole('table', { name: 'Your payments and refunds' })
    .getByRole('row')
    .filter({ hasText: 'Declined first, then paid' });
  // One payment: the declined attempt wrote no transaction.
  await expect(rows).toHaveCount(1, SLOW);
  await expect(rows).toContainText('Fondy');
});

// Paymentwall's decline is the journey above; each other provider's sandbox declines too.
for (const { provider, name } of PROVIDERS.filter((p) => p.provider !== 'paymentwall')) {
  test(`a decline in the ${name} sandbox opens the error modal and leaves the order unpaid`, async ({ page }) => {
    await watchRedirectNotice(page);
    const account = await signUp(page.request, `decline-${provider}`);
    const order = await customerWithUnpaidOrder(page, account, `Declined with ${name}`);
    await payWith(page, name);
    await page.getByRole('button', { name: 'Decline' }).click();
    const modal = page.getByRole('dialog', { name: `Looks like there's been a problem with your payment for order #${order.id}` });
    await expect(modal).toBeVisible(SLOW);
    await page.keyboard.press('Escape');
    await expect(statusSection(page).getByText('Unpaid', { exact: true })).toBeVisible(SLOW);
  });
}

test('refuses a forged callback with 403, and the order stays unpaid', async ({ page }) => {
  const account = await signUp(page.request, 'pay-forged');
  const order = await placeOrder(page.request, account.accessToken, 'Forged callback target');

  const forged = await page.request.post('/api/payments/fondy/callback', {
    headers: { 'Content-Type': 'application/json' },
    data: {
      order_id: order.uid,
      order_status: 'approved',
      amount: 1020,
      currency: 'USD',
      merchant_id: 1396424,
      payment_id: 987654321,
      signature: '0'.repeat(40),
    },
  });
  expect(forged.status()).toBe(403);

  const status = await page.request.get(`/api/en/orders/${order.id}/payment`, {
    headers: { Authorization: `Bearer ${account.accessToken}` },
  });
  expect(await status.json()).toEqual({ status: 'none', pending: false });
  await openSignedIn(page, account, `/orderinfo/${order.id}/details`);
  await expect(statusSection(page).getByText('Unpaid', { exact: true })).toBeVisible(SLOW);
  await expect(statusSection(page).getByRole('button', { name: /^Pay \$/ })).toBeVisible();
});

test('a visitor orders through the wizard and pays straight away (the express checkout path)', async ({ page }) => {
  await watchRedirectNotice(page);
  await openWizard(page);
  await completePaperStep(page);
  await completeInstructionsStep(page, 'Express checkout of an essay');
  await page.getByLabel('Name', { exact: true }).fill('Pat Payer');
  await page.getByLabel('Email').fill(freshEmail('pay-express'));
  await page.getByLabel('Phone').click();
  await page.getByLabel('Phone').pressSequentially('2015550123');
  await page.getByLabel('I accept the Terms of Use and the Privacy and Cookies Policy').check();
  await page.getByRole('button', { name: 'Create order' }).click();

  // Straight from creation to the chooser, then the sandbox, then the order paid.
  const chooser = page.getByRole('dialog', { name: 'Choose a payment method' });
  await expect(chooser).toBeVisible(SLOW);
  const id = Number(/\/orderinfo\/(\d+)\//.exec(page.url())?.[1]);
  await chooser.getByRole('button', { name: /with PayPal$/ }).click();
  await page.waitForURL(/\/sandbox\/paypal\//, SLOW);
  expect(await redirectNoticeSeen(page)).toBe('yes');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page).toHaveURL(new RegExp(`/orderinfo/${id}/details$`), SLOW);
  await expect(statusSection(page).getByText('Paid', { exact: true })).toBeVisible();
});
