import type { APIRequestContext } from '@playwright/test';
import { DEMO, expect, expectNoAxeViolations, openSignedIn, signInApi, SLOW, test, type Tokens } from './support';

/** SPEC §2 /orderinfo journeys (ADR 0021): the demo customer's order in each status, files, feedback, redirects. */
test.describe.configure({ mode: 'serial' });
// The machine running the journeys is shared and slow to serve the first lazy chunks: generous waits.
test.setTimeout(120_000);

interface Listed {
  id: number;
  uid: string;
  status: number;
  title: string;
}

const list = async (request: APIRequestContext, tokens: Tokens, hidden: boolean): Promise<Listed[]> => {
  const response = await request.get(`/api/en/sites/categories/1/orders?limit=100&page=1${hidden ? '&hidden=1' : ''}`, {
    headers: { Authorization: `Bearer ${tokens.accessToken}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { orders: Listed[] }).orders;
};

const STATUS_NAMES: Record<number, string> = {
  1: 'Unpaid',
  2: 'Paid',
  3: 'In progress',
  5: 'Completed',
  7: 'Refunded',
  8: 'Canceled',
  9: 'Hold',
  11: 'Offered',
};

test('shows the order page of each status with the actions it allows', async ({ page, request }) => {
  const tokens = await signInApi(request, DEMO.email, DEMO.password);
  const orders = await list(request, tokens, false);
  await openSignedIn(page, tokens, '/dashboard');
  for (const status of [1, 2, 3, 5, 7, 8, 9, 11]) {
    const order = orders.find((o) => o.status === status);
    expect(order, `a demo order in status ${status}`).toBeDefined();
    if (!order) continue;
    await page.goto(`/orderinfo/${order.id}/details`);
    await expect(page.getByRole('heading', { level: 1, name: `Order #${order.id}` })).toBeVisible(SLOW);
    await expect(page.getByRole('tab', { name: 'Files' })).toBeVisible(SLOW);
    const statusSection = page.getByRole('region', { name: 'Status', exact: true });
    await expect(statusSection.getByText(STATUS_NAMES[status] ?? '', { exact: true })).toBeVisible();
    await expect(statusSection.getByRole('button', { name: /^Pay \$/ })).toHaveCount(status === 1 ? 1 : 0);
    await expect(statusSection.getByRole('link', { name: 'Edit' })).toHaveCount(status === 1 ? 1 : 0);
    await expect(statusSection.getByRole('link', { name: 'Clone' })).toHaveAttribute('href', `/order?cloningOrder=${order.id}`);
    await expect(page.getByRole('tab', { name: 'Revisions' })).toBeEnabled({ enabled: status === 5 });
    await expect(page.getByRole('region', { name: 'Status history' }).getByRole('listitem').last()).toContainText(
      STATUS_NAMES[status] ?? '',
    );
    await expect(page).toHaveTitle(`Order #${order.id} · Writing Service`);
    await expectNoAxeViolations(page, `status ${status}`);
  }
});

test('says a hidden order is hidden, with Unhide and the way back', async ({ page, request }) => {
  const tokens = await signInApi(request, DEMO.email, DEMO.password);
  const [hidden] = await list(request, tokens, true);
  expect(hidden).toBeDefined();
  await openSignedIn(page, tokens, `/orderinfo/${hidden?.id}/details`);
  // Issue 27 (ADR 0093): not "Something went wrong"; Unhide itself is walked by phone-dashboard.spec.ts.
  await expect(page.getByRole('alert')).toContainText('This order is hidden', SLOW);
  await expect(page.getByRole('button', { name: 'Unhide' })).toBeVisible();
  await expectNoAxeViolations(page, 'hidden order');
  await page.getByRole('link', { name: 'Back to All Orders' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("downloads the file support delivered to a customer's order", async ({ page, request }) => {
  const tokens = await signInApi(request, DEMO.email, DEMO.password);
  const completed = (await list(request, tokens, false)).find((o) => o.status === 5);
  expect(completed).toBeDefined();
  const support = await signInApi(request, 'support@example.com', 'support12345');
  const content = `Final essay delivered at ${Date.now()}\n`;
  const delivered = await request.post(`/api/staff/orders/${completed?.id}/files`, {
    headers: { Authorization: `Bearer ${support.accessToken}` },
    multipart: { file: { name: 'final-essay.txt', mimeType: 'text/plain', buffer: Buffer.from(content) } },
  });
  expect(delivered.status(), await delivered.text()).toBe(200);

  await openSignedIn(page, tokens, `/orderinfo/${completed?.id}/files`);
  const writerFiles = page.getByRole('region', { name: "Writer's files" });
  await expect(writerFiles.getByText('final-essay.txt').first()).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'files tab');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    writerFiles.getByRole('button', { name: 'Download final-essay.txt' }).first().click(),
  ]);
  expect(download.suggestedFilename()).toBe('final-essay.txt');
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  expect(Buffer.concat(chunks).toString()).toBe(content);
});

test('leaves feedback with half a star on a completed order, by keyboard', async ({ page, request }) => {
  const tokens = await signInApi(request, DEMO.email, DEMO.password);
  const completed = (await list(request, tokens, false)).find((o) => o.status === 5);
  await openSignedIn(page, tokens, `/orderinfo/${completed?.id}/details`);
  await page.getByRole('button', { name: 'Leave feedback' }).click(SLOW);
  const dialog = page.getByRole('dialog', { name: 'Leave feedback' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'feedback dialog');
  await dialog.getByRole('radio', { name: '4 out of 5 stars' }).check({ force: true });
  await page.keyboard.press('ArrowLeft');
  await expect(dialog.getByRole('radio', { name: '3.5 out of 5 stars' })).toBeChecked();
  await dialog.getByLabel('Comment').fill('Clear argument, delivered on time.');
  await dialog.getByRole('button', { name: 'Send feedback' }).click();
  await expect(page.getByRole('region', { name: 'Notifications' }).getByText('Your review has been added.')).toBeVisible();
  const feedback = page.getByRole('region', { name: 'Your feedback' });
  await expect(feedback.getByRole('img', { name: '3.5 out of 5 stars' })).toBeVisible();
  await expect(feedback).toContainText('Clear argument, delivered on time.');
  await expect(page.getByRole('button', { name: 'Leave feedback' })).toHaveCount(0);
  await expectNoAxeViolations(page, 'feedback left');
});

test('looks an order up by uid from /orderinfo?id=, and sends an unknown one to /dashboard', async ({ page, request }) => {
  const tokens = await signInApi(request, DEMO.email, DEMO.password);
  const [first] = await list(request, tokens, false);
  await openSignedIn(page, tokens, `/orderinfo?id=${first?.uid}`);
  await expect(page).toHaveURL(new RegExp(`/orderinfo/${first?.id}/details$`), SLOW);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${first?.id}` })).toBeVisible();
  await page.goto('/orderinfo?id=no-such-order-uid-000');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('shows /404 with the way to All Orders', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/404$/, SLOW);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to All Orders' })).toHaveAttribute('href', '/dashboard');
});
