import { essayOrderBody, expect, openSignedIn, placeOrder, shoot, signInApi, signUp, SLOW, test } from './support';

/**
 * ADR 0034, 0035 journey: a checkout opened for a cheap order, the order edited to a dear one, the cheap
 * attempt paid. The order must not become paid, and its page says what happened to the money.
 */
test.setTimeout(120_000);

test('paying a checkout opened before an edit raised the price does not pay the order, and the page says so', async ({ page }) => {
  const account = await signUp(page.request, 'pay-after-edit');
  const order = await placeOrder(page.request, account.accessToken, 'Cheap, then edited');
  await openSignedIn(page, account, `/orderinfo/${order.id}/details`);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${order.id}` })).toBeVisible(SLOW);

  // Open Fondy's checkout, then leave it open while the order is edited elsewhere.
  const status = page.getByRole('region', { name: 'Status', exact: true });
  const cheap = (await status.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).textContent()) ?? '';
  await status.getByRole('button', { name: /^Pay \$/ }).click();
  await page
    .getByRole('dialog', { name: 'Choose a payment method' })
    .getByRole('button', { name: /with Fondy$/ })
    .click();
  await page.waitForURL(/\/sandbox\/fondy\//, SLOW);
  await expect(page.getByRole('button', { name: cheap })).toBeVisible();

  const edited = await page.request.put(`/api/en/sites/categories/1/orders/${order.id}`, {
    headers: { Authorization: `Bearer ${account.accessToken}` },
    data: { ...essayOrderBody('Cheap, then edited'), pages: 30, urgency: 24, premiumWriter: 2 },
  });
  expect(edited.status(), await edited.text()).toBe(200);

  // The page opened before the edit still offers the old amount; paying it sends Fondy's signed callback.
  await page.getByRole('button', { name: cheap }).click();
  await expect(page).toHaveURL(new RegExp(`/orderinfo/${order.id}/details`), SLOW);

  const modal = page.getByRole('dialog', { name: /problem with your payment for order/ });
  await expect(modal).toBeVisible(SLOW);
  await page.keyboard.press('Escape');
  await expect(modal).toBeHidden();
  await expect(page.getByText('We received a payment that did not match the order price; support will contact you.')).toBeVisible();
  await expect(status.getByText('Unpaid', { exact: true })).toBeVisible();
  // The order asks for its new price, not the amount paid.
  await expect(status.getByRole('button', { name: /^Pay \$/ })).not.toHaveText(cheap);
  await shoot(page, 'payment-not-applied');
});

test('a forced edit that raises a paid order asks for exactly the difference, and paying it makes the order paid again', async ({
  page,
}) => {
  const account = await signUp(page.request, 'pay-difference');
  const order = await placeOrder(page.request, account.accessToken, 'Paid, then more pages');
  await openSignedIn(page, account, `/orderinfo/${order.id}/details`);
  const status = page.getByRole('region', { name: 'Status', exact: true });
  await status.getByRole('button', { name: /^Pay \$/ }).click();
  await page
    .getByRole('dialog', { name: 'Choose a payment method' })
    .getByRole('button', { name: /with Fondy$/ })
    .click();
  await page.waitForURL(/\/sandbox\/fondy\//, SLOW);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(status.getByText('Paid', { exact: true })).toBeVisible(SLOW);

  // Support opens the order for changes (10); the customer adds pages with forceEditing.
  const support = await signInApi(page.request, 'support@example.com', 'support12345');
  const opened = await page.request.put(`/api/staff/orders/${order.id}/status`, {
    headers: { Authorization: `Bearer ${support.accessToken}` },
    data: { status: 10 },
  });
  expect(opened.status(), await opened.text()).toBe(200);
  const paidPrice = (
    (await (
      await page.request.get(`/api/en/orders/${order.id}`, { headers: { Authorization: `Bearer ${account.accessToken}` } })
    ).json()) as { finalPrice: number }
  ).finalPrice;
  const edited = await page.request.put(`/api/en/sites/categories/1/orders/${order.id}?forceEditing=1`, {
    headers: { Authorization: `Bearer ${account.accessToken}` },
    data: { ...essayOrderBody('Paid, then more pages'), pages: 3 },
  });
  expect(edited.status(), await edited.text()).toBe(200);
  const newPrice = (
    (await (
      await page.request.get(`/api/en/orders/${order.id}`, { headers: { Authorization: `Bearer ${account.accessToken}` } })
    ).json()) as { finalPrice: number }
  ).finalPrice;
  const difference = `$${(Math.round(newPrice * 100 - paidPrice * 100) / 100).toFixed(2)}`;

  await page.reload();
  await expect(page.getByText(`Your changes add ${difference} to this order`)).toBeVisible(SLOW);
  await shoot(page, 'payment-difference-due');
  await page.getByRole('button', { name: `Pay ${difference}` }).click();
  await page
    .getByRole('dialog', { name: 'Choose a payment method' })
    .getByRole('button', { name: /with Fondy$/ })
    .click();
  await page.waitForURL(/\/sandbox\/fondy\//, SLOW);
  await page.getByRole('button', { name: `Pay ${difference}` }).click();
  await expect(page).toHaveURL(new RegExp(`/orderinfo/${order.id}/details`), SLOW);
  await expect(status.getByText('Paid', { exact: true })).toBeVisible(SLOW);
  await expect(page.getByText(/Your changes add/)).toHaveCount(0);
});
