import type { APIRequestContext } from '@playwright/test';
import {
  type Account,
  bearer,
  expect,
  expectNoAxeViolations,
  openSignedIn,
  placeOrder,
  shoot,
  signInApi,
  signUp,
  SLOW,
  SUPPORT,
  test,
  type Tokens,
  WRITER,
  runNotificationsJob,
} from './support';

/**
 * ADR 0088, CONTRACT "Notifications": the bell lights up live (the chat socket's event 20) when support
 * assigns a writer and when the work is delivered; its item opens the delivery; a type turned off in
 * /profile stops its mail (the notifications job run through the dev-only route as if minutes had passed).
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

let customer: Account;
let support: Tokens;
let writer: Tokens;
let writerId: number;

const paidOrder = async (request: APIRequestContext, topic: string): Promise<number> => {
  const { id } = await placeOrder(request, customer.accessToken, topic);
  const paid = await request.post(`/api/staff/orders/${id}/payments`, {
    headers: bearer(support),
    data: { reference: `E2E-N-${id}-${Date.now()}` },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  return id;
};
const assign = async (request: APIRequestContext, orderId: number) => {
  const assigned = await request.put(`/api/staff/orders/${orderId}/writer`, { headers: bearer(support), data: { idWriter: writerId } });
  expect(assigned.status(), await assigned.text()).toBe(200);
};
const deliver = async (request: APIRequestContext, orderId: number) => {
  const upload = await request.post(`/api/staff/orders/${orderId}/files`, {
    headers: bearer(writer),
    multipart: { file: { name: 'final-essay.txt', mimeType: 'text/plain', buffer: Buffer.from('The final essay.\n'.repeat(40)) } },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const submitted = await request.post(`/api/staff/orders/${orderId}/delivery`, {
    headers: bearer(writer),
    data: { message: 'Here it is.' },
  });
  expect(submitted.status(), await submitted.text()).toBe(200);
};
const subjects = async (request: APIRequestContext): Promise<string[]> => {
  const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(customer.email)}&limit=100`);
  return ((await response.json()) as { messages: { subject: string }[] }).messages.map((m) => m.subject);
};

test.beforeAll(async ({ request }) => {
  customer = await signUp(request, 'notify');
  support = await signInApi(request, SUPPORT.email, SUPPORT.password);
  writer = await signInApi(request, WRITER.email, WRITER.password);
  writerId = ((await (await request.get('/api/staff/me', { headers: bearer(writer) })).json()) as { id: number }).id;
});

test('the bell lights up live when support assigns a writer and when the work is delivered; the item opens the delivery', async ({
  page,
  request,
}) => {
  const orderId = await paidOrder(request, 'An essay the bell follows');
  await openSignedIn(page, customer, '/dashboard');
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toBeVisible(SLOW);
  // The payment's notification is there already (made before the page opened).
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread', SLOW);
  // Mark everything read, so what follows is what the socket brings.
  await bell.click();
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(bell).toHaveAccessibleName('Notifications', SLOW);
  await page.keyboard.press('Escape');

  await assign(request, orderId);
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread', SLOW);
  await deliver(request, orderId);
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread', SLOW);
  await expect(page.getByTestId('notification-count')).toHaveText('2');

  await bell.click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await expect(panel.getByRole('region', { name: `Order #${orderId}` })).toBeVisible();
  await expectNoAxeViolations(page, 'notification list');
  await shoot(page, 'notifications-bell');
  await panel.getByRole('link', { name: new RegExp(`Your work for order #${orderId} is ready`) }).click();
  await expect(page).toHaveURL(new RegExp(`/orderinfo/${orderId}/details`));
  await expect(page.getByRole('region', { name: 'Your delivery' })).toBeVisible(SLOW);
  await expect(bell).toHaveAccessibleName('Notifications, 1 unread', SLOW);
});

test('turning a type off in /profile stops its mail; the receipt stays locked', async ({ page, request }) => {
  await openSignedIn(page, customer, '/profile');
  const table = page.getByRole('table', { name: /Which notifications you get/ });
  await expect(table).toBeVisible(SLOW);
  await expect(table.getByRole('checkbox', { name: 'Payment received by email' })).toBeDisabled();
  await expect(table.getByRole('checkbox', { name: 'Payment received by email' })).toBeChecked();
  await expect(table.getByText('Receipts are records of your payments and are always sent.')).toHaveCount(2);
  const writerMail = table.getByRole('checkbox', { name: 'Writer assigned by email' });
  await expect(writerMail).toBeChecked();
  const saved = page.waitForResponse((r) => r.url().includes('/notification-preferences') && r.request().method() === 'PUT');
  await writerMail.uncheck();
  expect((await saved).status()).toBe(200);
  await expect(writerMail).not.toBeChecked();
  await expectNoAxeViolations(page, 'notification preferences');
  await shoot(page, 'notifications-preferences');

  const orderId = await paidOrder(request, 'An essay whose writer is not mailed');
  await assign(request, orderId);
  await runNotificationsJob(request);
  // This order's mail: the receipt only; the writer's assignment is not mailed.
  const ofOrder = (await subjects(request)).filter((s) => s.includes(`#${orderId}`));
  expect(ofOrder).toEqual([`Payment received for order #${orderId}`]);
});

test('browser notifications are offered only once the customer has an order, never on the first visit', async ({ page, request }) => {
  const newcomer = await signUp(request, 'notify-push');
  await openSignedIn(page, newcomer, '/dashboard');
  await expect(page.getByRole('heading', { name: 'All Orders' })).toBeVisible(SLOW);
  // Nothing asked, and no service worker registered, before an order.
  await expect(page.getByRole('button', { name: 'Turn on' })).toHaveCount(0);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  expect(await page.evaluate(() => Notification.permission)).toBe('default');
  await placeOrder(request, newcomer.accessToken, 'A first order');
  await page.reload();
  const offer = page.getByRole('region', { name: 'Get told when your writer delivers' });
  await expect(offer).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'push offer');
  // Still nothing asked until the customer clicks; "Not now" is remembered.
  expect(await page.evaluate(() => Notification.permission)).toBe('default');
  await offer.getByRole('button', { name: 'Not now' }).click();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'All Orders' })).toBeVisible(SLOW);
  await expect(page.getByRole('region', { name: 'Get told when your writer delivers' })).toHaveCount(0);
});
