import type { APIRequestContext } from '@playwright/test';
import { expect, expectNoAxeViolations, openSignedIn, placeOrder, shoot, signUp, SLOW, test } from './support';

/**
 * ADR 0086 journey (issue 24, "Upgrades after payment"): on a paid order the customer previews an upgrade
 * (more pages, an extra, a shorter deadline), pays the difference in the sandbox through the usual chooser,
 * and the order takes it exactly once: paying the same attempt again, or opening the upgrade's checkout
 * again, changes and charges nothing more.
 */
test.setTimeout(150_000);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Pays an unpaid order through Fondy's sandbox by the server's own routes (checkout → sandbox Pay → signed callback). */
const payInSandbox = async (request: APIRequestContext, uid: string): Promise<void> => {
  const start = await request.get(`/checkout/fondy/order/${uid}?hashDevice=e2e-upgrade`, { maxRedirects: 0 });
  expect(start.status()).toBe(302);
  const sandbox = new URL(start.headers().location ?? '', 'http://localhost').pathname;
  const paid = await request.post(`${sandbox}/pay`, { maxRedirects: 0 });
  expect(paid.status()).toBe(303);
};

interface OrderView {
  pages: number;
  urgency: number;
  finalPrice: number;
  deadline: string;
  status: number;
  features: { originalityReport: number };
}
const readOrder = async (request: APIRequestContext, token: string, id: number): Promise<OrderView> =>
  (await (await request.get(`/api/en/orders/${id}`, { headers: bearer(token) })).json()) as OrderView;
const payments = async (request: APIRequestContext, token: string): Promise<{ amount: number; type: string; status: string }[]> => {
  const body = (await (await request.get('/api/en/customers/transactions?page=1&limit=20', { headers: bearer(token) })).json()) as {
    transactions: { amount: number; type: string; status: string }[];
  };
  return body.transactions.filter((t) => t.type === 'payment');
};

test('an upgrade previewed, paid in the sandbox, applied once', async ({ page }) => {
  const account = await signUp(page.request, 'upgrade');
  const order = await placeOrder(page.request, account.accessToken, 'An essay that grows');
  await payInSandbox(page.request, order.uid);
  const before = await readOrder(page.request, account.accessToken, order.id);
  expect(before).toMatchObject({ status: 2, pages: 1, urgency: 240 });

  await openSignedIn(page, account, `/orderinfo/${order.id}/details`);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${order.id}` })).toBeVisible(SLOW);
  const panel = page.getByRole('region', { name: 'Upgrade order' });
  await expect(panel).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'paid order with the upgrade panel');

  // The preview: 3 pages, an originality report, 5 days instead of 10; the difference comes from the server.
  await panel.getByRole('button', { name: 'Upgrade order' }).click();
  const form = panel.getByRole('form', { name: 'Upgrade order' });
  await expect(form.getByLabel('Pages (now 1)')).toBeFocused();
  await form.getByLabel('Pages (now 1)').fill('3');
  await form.getByRole('checkbox', { name: 'Originality report' }).check();
  await form.getByLabel('Deadline').selectOption({ label: '5 days' });
  const preview = form.getByRole('status');
  await expect(preview.getByText('To pay now')).toBeVisible(SLOW);
  const quote = (await (
    await page.request.put(`/api/en/orders/${order.id}/upgrade/calcs`, {
      headers: bearer(account.accessToken),
      data: { pages: 3, urgency: 120, extras: ['originalityReport'] },
    })
  ).json()) as { difference: number; newPrice: number };
  const difference = `$${quote.difference.toFixed(2)}`;
  await expect(preview).toContainText(difference);
  await expect(preview).toContainText(`$${quote.newPrice.toFixed(2)}`);
  await expectNoAxeViolations(page, 'upgrade preview');
  await shoot(page, 'upgrade-preview');

  // Continue: the upgrade is made, then paid through the one payment chooser, with Fondy's sandbox.
  const created = page.waitForResponse((r) => r.url().endsWith(`/api/en/orders/${order.id}/upgrade`) && r.request().method() === 'POST');
  await form.getByRole('button', { name: 'Continue to payment' }).click();
  const { upgradeId } = (await (await created).json()) as { upgradeId: string };
  const pay = form.getByRole('button', { name: `Pay ${difference} for the upgrade` });
  await expect(pay).toBeVisible(SLOW);
  await pay.click();
  const chooser = page.getByRole('dialog', { name: 'Choose a payment method' });
  await expect(chooser).toContainText(difference);
  await expectNoAxeViolations(page, 'payment chooser for the upgrade');
  await chooser.getByRole('button', { name: /with Fondy$/ }).click();
  await page.waitForURL(/\/sandbox\/fondy\//, SLOW);
  const sandboxPath = new URL(page.url()).pathname;
  await page.getByRole('button', { name: new RegExp(`^Pay \\${difference}`) }).click();

  await page.waitForURL(new RegExp(`/orderinfo/${order.id}/details\\?upgrade=success`), SLOW);
  await expect(page.getByText('Upgrade paid')).toBeVisible(SLOW);
  await expect(page.getByText('3 (900 words)')).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'upgrade paid');
  await shoot(page, 'upgrade-paid');

  const after = await readOrder(page.request, account.accessToken, order.id);
  expect(after).toMatchObject({ status: 2, pages: 3, urgency: 120, features: { originalityReport: 2 } });
  expect(Math.round(after.finalPrice * 100)).toBe(Math.round((before.finalPrice + quote.difference) * 100));
  expect(new Date(after.deadline).getTime()).toBe(new Date(before.deadline).getTime() - 120 * 3_600_000);
  expect((await payments(page.request, account.accessToken)).map((p) => p.amount).sort()).toEqual(
    [before.finalPrice, quote.difference].sort(),
  );

  // Applied once: the sandbox's Pay again, and the upgrade's checkout again, change and charge nothing.
  await page.request.post(`${sandboxPath}/pay`, { maxRedirects: 0 });
  const again = await page.request.get(`/checkout/fondy/upgrade/${upgradeId}?hashDevice=e2e-upgrade`, { maxRedirects: 0 });
  expect(again.status()).toBe(302);
  expect(again.headers().location).toBe(`/orderinfo/${order.id}/details?upgrade=closed`);
  expect(await readOrder(page.request, account.accessToken, order.id)).toEqual(after);
  expect(await payments(page.request, account.accessToken)).toHaveLength(2);
});

test('an unpaid order offers no upgrade, another customer’s order is a 404, and a refused request shows its message in the preview', async ({
  page,
}) => {
  const account = await signUp(page.request, 'upgrade-refused');
  const unpaid = await placeOrder(page.request, account.accessToken, 'Not paid yet');
  const refused = await page.request.post(`/api/en/orders/${unpaid.id}/upgrade`, {
    headers: bearer(account.accessToken),
    data: { pages: 2, extras: [] },
  });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toEqual({ message: 'This order is not paid yet: edit it instead of upgrading it' });
  await openSignedIn(page, account, `/orderinfo/${unpaid.id}/details`);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${unpaid.id}` })).toBeVisible(SLOW);
  await expect(page.getByRole('region', { name: 'Status', exact: true })).toBeVisible(SLOW);
  await expect(page.getByRole('region', { name: 'Upgrade order' })).toHaveCount(0);

  // Another customer's order is a 404, not a refusal.
  const stranger = await signUp(page.request, 'upgrade-stranger');
  const theirs = await page.request.put(`/api/en/orders/${unpaid.id}/upgrade/calcs`, {
    headers: bearer(stranger.accessToken),
    data: { pages: 2, extras: [] },
  });
  expect(theirs.status()).toBe(404);

  // Once paid, the panel is offered; a request the rule refuses shows its message in the live preview.
  await payInSandbox(page.request, unpaid.uid);
  await page.reload();
  const panel = page.getByRole('region', { name: 'Upgrade order' });
  await panel.getByRole('button', { name: 'Upgrade order' }).click();
  const form = panel.getByRole('form', { name: 'Upgrade order' });
  await form.getByLabel('Pages (now 1)').fill('0');
  await expect(form.getByRole('status')).toContainText('An upgrade can only add pages: the order has 1', SLOW);
  await expectNoAxeViolations(page, 'upgrade refused');
});
