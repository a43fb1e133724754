import type { APIRequestContext, Page } from '@playwright/test';
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
  wizardStep,
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
/** Nothing widens the page past its viewport (390 px in the phone project). */
const fitsWidth = async (page: Page, what: string) => {
  const width = page.viewportSize()?.width ?? 0;
  const scrollWidth = await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0);
  expect(scrollWidth, `${what}: the page is ${scrollWidth} px wide at ${width} px`).toBeLessThanOrEqual(width);
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
  await fitsWidth(page, 'the notification list');
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
  await fitsWidth(page, 'the preferences');
  // Readable: the table fits its column, each row's label and both boxes on screen.
  expect(await table.evaluate((t) => t.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
  await table.getByRole('checkbox', { name: 'Work delivered as a browser notification' }).scrollIntoViewIfNeeded();
  await expect(table.getByRole('checkbox', { name: 'Work delivered as a browser notification' })).toBeInViewport();
  await shoot(page, 'notifications-preferences');

  const orderId = await paidOrder(request, 'An essay whose writer is not mailed');
  await assign(request, orderId);
  await runNotificationsJob(request);
  // This order's mail: the receipt only; the writer's assignment is not mailed.
  const ofOrder = (await subjects(request)).filter((s) => s.includes(`#${orderId}`));
  expect(ofOrder).toEqual([`Payment received for order #${orderId}`]);
});

test('browser notifications: asked only after the first order (Chromium grants it); the subscription the browser makes is stored', async ({
  page,
  request,
  baseURL,
}) => {
  // A first visit, /order, an order, the offer and its outcome: long on a loaded machine.
  test.setTimeout(240_000);
  // Chromium grants the permission (no prompt to answer); every call that would ask is counted, across reloads.
  await page.context().grantPermissions(['notifications'], { origin: baseURL ?? '' });
  await page.addInitScript(() => {
    const ask = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args: Parameters<typeof Notification.requestPermission>) => {
      localStorage.setItem('e2e-permission-asked', String(Number(localStorage.getItem('e2e-permission-asked') ?? '0') + 1));
      return ask(...args);
    };
  });
  const asked = () => page.evaluate(() => Number(localStorage.getItem('e2e-permission-asked') ?? '0'));
  const registrations = () => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length);
  const offer = page.getByRole('region', { name: 'Get told when your writer delivers' });

  const newcomer = await signUp(request, 'notify-push');
  await openSignedIn(page, newcomer, '/dashboard');
  await expect(page.getByRole('heading', { name: 'All Orders' })).toBeVisible(SLOW);
  // The first visit: nothing offered, nothing asked, no service worker.
  await expect(page.getByRole('button', { name: 'Turn on' })).toHaveCount(0);
  expect(await asked()).toBe(0);
  expect(await registrations()).toBe(0);
  // Nor on /order (its first paint has no service worker either).
  await page.goto('/order');
  await expect(wizardStep(page, 'Paper')).toBeVisible(SLOW);
  expect(await asked()).toBe(0);
  expect(await registrations()).toBe(0);

  await placeOrder(request, newcomer.accessToken, 'A first order');
  await page.goto('/dashboard');
  await expect(offer).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'push offer');
  await fitsWidth(page, 'the push offer');
  await shoot(page, 'notifications-push-offer');
  // Offered, still not asked until the customer clicks.
  expect(await asked()).toBe(0);
  expect(await registrations()).toBe(0);

  const stored = page
    .waitForResponse((r) => r.url().includes('/push/subscriptions') && r.request().method() === 'POST', { timeout: 15_000 })
    .catch(() => null);
  await offer.getByRole('button', { name: 'Turn on' }).click();
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Browser notifications are on.' })
      .or(offer.getByText('Browser notifications could not be turned on.')),
  ).toBeVisible(SLOW);
  expect(await asked()).toBe(1);
  expect(await registrations()).toBe(1);
  const subscription = await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration('/');
    return (await registration?.pushManager.getSubscription())?.toJSON() ?? null;
  });
  const prefs = async () =>
    (await (await request.get('/api/en/customers/notification-preferences', { headers: bearer(newcomer) })).json()) as Record<
      string,
      { email: boolean; push: boolean }
    >;
  if (subscription) {
    // A browser with a push service: the server took the subscription and push is on for the usual types.
    expect((await stored)?.status()).toBe(204);
    await expect(page.getByRole('status').filter({ hasText: 'Browser notifications are on.' })).toBeVisible();
    expect((await prefs()).writer_assigned?.push).toBe(true);
  } else {
    // This offline Chromium has no push service ("Registration failed"): the customer is told, nothing is
    // stored and push stays off; the offer stays for another try or "Not now".
    expect(await stored).toBeNull();
    await expect(offer.getByText('Browser notifications could not be turned on.')).toBeVisible();
    expect((await prefs()).writer_assigned?.push).toBe(false);
  }
  await shoot(page, 'notifications-push-after');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'All Orders' })).toBeVisible(SLOW);
  if (!subscription) {
    await offer.getByRole('button', { name: 'Not now' }).click();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'All Orders' })).toBeVisible(SLOW);
  }
  // Subscribed, or "Not now": not offered again on this device.
  await expect(offer).toHaveCount(0);
  expect(await asked()).toBe(1);
});
