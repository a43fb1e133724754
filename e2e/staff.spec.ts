import type { APIRequestContext, Page } from '@playwright/test';
import {
  type Account,
  bearer,
  expect,
  expectNoAxeViolations,
  openNavigation,
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
} from './support';

/**
 * ADR 0059, 0071: the staff console. Support signs in on /login and lands on the queue; on an unpaid
 * order the console offers only the table's moves, support records a manual payment (paid only through
 * money), holds and releases it with a reason, and assigns the writer (2 → 3); a move refused meanwhile
 * shows the server's 409; the writer sees only the orders assigned to them and delivers a file; support
 * completes the delivered order and refunds it, after which the customer can no longer download the
 * writer's file and support still can; the money queues render; a customer opening /staff gets the 404
 * page. axe-core on each state at 1280 and 390 px.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

let customer: Account;
let orderId: number;
let otherOrderId: number;
let writerId: number;
let writerName: string;

const staffMe = async (
  request: APIRequestContext,
  tokens: Tokens,
): Promise<{ id: number; role: number; firstName: string; lastName: string }> => {
  const response = await request.get('/api/staff/me', { headers: bearer(tokens) });
  expect(response.status()).toBe(200);
  return (await response.json()) as { id: number; role: number; firstName: string; lastName: string };
};

/** axe on the page as it is, at the desktop width and at 390 px (the narrow layout), then back. */
const axeBothWidths = async (page: Page, state: string) => {
  await expectNoAxeViolations(page, `${state}, 1280 px`);
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await openNavigation(page);
  await expectNoAxeViolations(page, `${state}, 390 px`);
  if (viewport) await page.setViewportSize(viewport);
};

test.beforeAll(async ({ request }) => {
  customer = await signUp(request, 'staff-console');
  orderId = (await placeOrder(request, customer.accessToken, 'An essay the staff console handles')).id;
  otherOrderId = (await placeOrder(request, customer.accessToken, 'An essay no writer has')).id;
  const writerMe = await staffMe(request, await signInApi(request, WRITER.email, WRITER.password));
  writerId = writerMe.id;
  writerName = `${writerMe.firstName} ${writerMe.lastName}`;
});

test('support signs in on /login and lands on the orders queue, filters it by status and opens an order', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(SUPPORT.email);
  await page.getByLabel('Password', { exact: true }).fill(SUPPORT.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();

  await expect(page).toHaveURL(/\/staff$/, SLOW);
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible(SLOW);
  const orders = page.getByRole('list', { name: 'Orders' });
  await expect(orders.getByRole('link', { name: new RegExp(`#${orderId}\\b`) })).toBeVisible(SLOW);
  await axeBothWidths(page, 'queue');
  await shoot(page, 'staff-queue');

  // The filter keeps only unpaid orders (both new orders are unpaid) and lives in the address bar.
  await page.getByLabel('Status').selectOption({ label: 'Completed' });
  await expect(page).toHaveURL(/\/staff\?status=5$/);
  await expect(orders.getByRole('link', { name: new RegExp(`#${orderId}\\b`) })).toHaveCount(0, SLOW);
  await page.getByLabel('Status').selectOption({ label: 'Unpaid' });
  await expect(orders.getByRole('link', { name: new RegExp(`#${orderId}\\b`) })).toBeVisible(SLOW);

  await orders.getByRole('link', { name: new RegExp(`#${orderId}\\b`) }).click();
  await expect(page).toHaveURL(new RegExp(`/staff/orders/${orderId}$`));
  await expect(page.getByRole('heading', { level: 1, name: `Order #${orderId}` })).toBeVisible(SLOW);
});

test('support is offered only the allowed moves, records a manual payment, holds with a reason and assigns the writer', async ({
  page,
  request,
}) => {
  const support = await signInApi(request, SUPPORT.email, SUPPORT.password);
  await openSignedIn(page, support, `/staff/orders/${orderId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${orderId}` })).toBeVisible(SLOW);
  await axeBothWidths(page, 'order view, support');

  // Unpaid: the only move by hand is Canceled; paid comes from money.
  const status = page.getByRole('form', { name: 'Change status' });
  await expect(status.getByLabel('Move to').locator('option')).toHaveText(['Choose a move…', 'Canceled']);
  await expect(status.getByText('Paid is reached only through money', { exact: false })).toBeVisible();
  const refused = await request.put(`/api/staff/orders/${orderId}/status`, { headers: bearer(support), data: { status: 5 } });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toEqual({ message: 'Cannot move order from Unpaid to Completed. Allowed now: Canceled.' });
  await shoot(page, 'staff-order-unpaid');

  const payment = page.getByRole('form', { name: 'Record a manual payment' });
  await payment.getByLabel('Payment reference').fill(`E2E-BANK-${orderId}`);
  await payment.getByRole('button', { name: 'Record payment' }).click();
  await expect(page.getByText(`Payment recorded: order #${orderId} is Paid`)).toBeVisible(SLOW);
  await expect(page.getByRole('form', { name: 'Record a manual payment' })).toHaveCount(0);

  // Paid: hold, modified, cancel, refund are offered; a hold asks a reason and a confirmation.
  await expect(status.getByLabel('Move to').locator('option')).toHaveText(
    ['Choose a move…', 'Hold', 'Modified', 'Canceled', 'Refunded'],
    SLOW,
  );
  await status.getByLabel('Move to').selectOption({ label: 'Hold' });
  await status.getByRole('button', { name: 'Change status' }).click();
  const dialog = page.getByRole('dialog', { name: 'Put this order on hold?' });
  await dialog.getByRole('button', { name: 'Put on hold' }).click();
  await expect(dialog.getByText('Enter the reason')).toBeVisible();
  await dialog.getByLabel('Reason').fill('Waiting for the customer to confirm the topic');
  await axeBothWidths(page, 'hold dialog');
  await shoot(page, 'staff-hold-dialog');
  await dialog.getByRole('button', { name: 'Put on hold' }).click();
  await expect(page.getByText('Status changed to Hold')).toBeVisible(SLOW);
  const history = page.getByRole('list', { name: 'Status history' });
  await expect(history).toContainText('“Waiting for the customer to confirm the topic”', SLOW);
  // Released to what the order is: paid, since no writer has it yet.
  await status.getByLabel('Move to').selectOption({ label: 'Paid' });
  await status.getByRole('button', { name: 'Change status' }).click();
  await expect(page.getByText('Status changed to Paid')).toBeVisible(SLOW);

  // ADR 0089: only writers are listed; a customer's id sent by hand is refused (422).
  const notAWriter = await request.put(`/api/staff/orders/${orderId}/writer`, { headers: bearer(support), data: { idWriter: 1 } });
  expect(notAWriter.status()).toBe(422);
  const writer = page.getByRole('form', { name: 'Assign writer' });
  await writer.getByLabel(new RegExp(`#${writerId}\\b`)).check();
  await writer.getByRole('button', { name: /^Assign/ }).click();
  await expect(page.getByText(`${writerName} assigned`)).toBeVisible(SLOW);
  await expect(page.getByText(`Now: ${writerName}.`)).toBeVisible();
  // The assignment moved the paid order to in progress.
  await expect(page.getByRole('main').getByText('In progress', { exact: true }).first()).toBeVisible(SLOW);
  await shoot(page, 'staff-order-support');

  const stored = await request.get(`/api/staff/orders/${orderId}`, { headers: bearer(support) });
  expect(await stored.json()).toMatchObject({ id: orderId, status: 3, idWriter: writerId });
  // The customer's order page shows the changes in its history, who made them and why.
  const detail = await request.get(`/api/en/orders/${orderId}`, { headers: bearer(customer) });
  const seen = ((await detail.json()) as { statusHistory: { status: number; by?: string; reason?: string }[] }).statusHistory;
  expect(seen.map((h) => h.status)).toEqual([1, 2, 9, 2, 3]);
  expect(seen[2]).toMatchObject({ by: 'support', reason: 'Waiting for the customer to confirm the topic' });
  // One payment transaction, by bank transfer.
  const transactions = await request.get('/api/en/customers/transactions', { headers: bearer(customer) });
  expect(((await transactions.json()) as { transactions: { orderId: number; provider: string }[] }).transactions).toEqual([
    expect.objectContaining({ orderId, provider: 'manual' }),
  ]);
});

test('a move refused meanwhile shows the server message, and the view then offers what is allowed', async ({ page, request }) => {
  const support = await signInApi(request, SUPPORT.email, SUPPORT.password);
  await openSignedIn(page, support, `/staff/orders/${otherOrderId}`);
  const status = page.getByRole('form', { name: 'Change status' });
  await expect(status.getByLabel('Move to').locator('option')).toHaveText(['Choose a move…', 'Canceled'], SLOW);
  // Another agent cancels it first.
  const first = await request.put(`/api/staff/orders/${otherOrderId}/status`, {
    headers: bearer(support),
    data: { status: 8, reason: 'The customer asked by mail' },
  });
  expect(first.status()).toBe(200);
  await status.getByLabel('Move to').selectOption({ label: 'Canceled' });
  await status.getByRole('button', { name: 'Change status' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this order?' });
  await dialog.getByLabel('Reason').fill('Duplicate order');
  await dialog.getByRole('button', { name: 'Cancel order' }).click();
  await expect(page.getByText('Cannot move order from Canceled to Canceled. Allowed now: none.').first()).toBeVisible(SLOW);
  await expect(page.getByText('Canceled is final: no move is allowed from it.')).toBeVisible(SLOW);
  await axeBothWidths(page, 'refused move');
  await shoot(page, 'staff-move-refused');
  // One cancel in the history.
  const detail = await request.get(`/api/en/orders/${otherOrderId}`, { headers: bearer(customer) });
  expect(((await detail.json()) as { statusHistory: { status: number }[] }).statusHistory.map((h) => h.status)).toEqual([1, 8]);
});

test('the writer sees only the orders assigned to them, no support tools, and delivers a file with progress', async ({ page, request }) => {
  const writer = await signInApi(request, WRITER.email, WRITER.password);
  await openSignedIn(page, writer, '/staff');
  await expect(page.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible(SLOW);
  const orders = page.getByRole('list', { name: 'Orders' });
  await expect(orders.getByRole('link', { name: new RegExp(`#${orderId}\\b`) })).toBeVisible(SLOW);
  await expect(orders.getByRole('link', { name: new RegExp(`#${otherOrderId}\\b`) })).toHaveCount(0);
  const queue = (await (await request.get('/api/staff/orders?limit=100', { headers: bearer(writer) })).json()) as {
    orders: { idWriter: number }[];
  };
  expect(queue.orders.every((o) => o.idWriter === writerId)).toBe(true);
  await openNavigation(page);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Money' })).toHaveCount(0);
  await axeBothWidths(page, 'queue, writer');

  // An order not assigned to them: the API answers 404 and the view says so.
  await page.goto(`/staff/orders/${otherOrderId}`);
  await expect(page.getByText('Order not found')).toBeVisible(SLOW);

  await page.goto(`/staff/orders/${orderId}`);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${orderId}` })).toBeVisible(SLOW);
  await expect(page.getByRole('form', { name: 'Change status' })).toHaveCount(0);
  await expect(page.getByRole('form', { name: 'Assign writer' })).toHaveCount(0);
  const deliver = page.getByRole('form', { name: 'Deliver files' });
  await deliver.getByLabel('Files for the customer').setInputFiles({
    name: 'final-paper.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(200_000, 0x41), Buffer.from('\n%%EOF\n')]),
  });
  await deliver.getByRole('button', { name: 'Upload file' }).click();
  await expect(deliver.getByText('Uploaded: final-paper.pdf')).toBeVisible(SLOW);
  // CONTRACT "After payment": the file is the customer's when uploaded; the delivery is the writer's explicit
  // "this is the work" (ADR 0084), after which support may complete the order.
  const submit = page.getByRole('form', { name: 'Submit the delivery' });
  await submit.getByLabel('Message to the customer (optional)').fill('The final paper is ready.');
  await submit.getByRole('button', { name: 'Submit delivery' }).click();
  await expect(submit.getByText(/Delivery 1 on .+: waiting for the customer’s review/)).toBeVisible(SLOW);
  await axeBothWidths(page, 'order view, writer');
  await shoot(page, 'staff-order-writer');

  // The customer lists it among the writer's files.
  const files = await request.get(`/api/en/orders/${orderId}/writers/files`, { headers: bearer(customer) });
  expect(((await files.json()) as { name: string }[]).map((f) => f.name)).toContain('final-paper.pdf');

  // The money queues are support's: a writer gets the 404 page.
  await page.goto('/staff/money');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible(SLOW);
});

test('support sees the money queues: flagged attempts, unapplied payments, refund claims', async ({ page, request }) => {
  const support = await signInApi(request, SUPPORT.email, SUPPORT.password);
  await openSignedIn(page, support, '/staff/money');
  await expect(page.getByRole('heading', { level: 1, name: 'Money' })).toBeVisible(SLOW);
  for (const name of ['Payment attempts to check', 'Unapplied payments', 'Refund claims']) {
    await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${name}`) })).toBeVisible(SLOW);
  }
  await expect(page.getByText('Loading…')).toHaveCount(0, SLOW);
  await axeBothWidths(page, 'money');
  await shoot(page, 'staff-money');
});

test('a customer opening /staff gets the 404 page; a visitor goes to /login', async ({ page }) => {
  await openSignedIn(page, customer, '/staff');
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible(SLOW);
  await page.evaluate(() => localStorage.clear());
  await page.goto('/staff/money');
  await expect(page).toHaveURL(/\/login$/, SLOW);
  // A customer signing in from there goes to their dashboard, not to the console.
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password', { exact: true }).fill(customer.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/, SLOW);
});

test('support and the customer exchange messages live in two browser contexts: typing, message, reply, read state', async ({
  page,
  browser,
  request,
}) => {
  const support = await signInApi(request, SUPPORT.email, SUPPORT.password);
  await openSignedIn(page, support, `/staff/orders/${orderId}`);
  const log = page.getByRole('log', { name: 'Support chat' });
  await expect(log).toBeVisible(SLOW);
  await expect(page.getByText('Connecting to live updates…')).toHaveCount(0, SLOW);

  // The customer, in a browser context of their own, on the real customer socket and chat API.
  const context = await browser.newContext({ bypassCSP: true, extraHTTPHeaders: { 'X-Forwarded-For': '10.9.8.7' } });
  const customerPage = await context.newPage();
  await openSignedIn(customerPage, customer, '/dashboard');
  await customerPage.evaluate(
    ({ token }) =>
      new Promise<void>((resolve, reject) => {
        const frames: unknown[] = [];
        Object.assign(window, { chatFrames: frames });
        const socket = new WebSocket(
          `${location.origin.replace(/^http/, 'ws')}/chat/customers/orders/messages?accessToken=${encodeURIComponent(token)}`,
        );
        Object.assign(window, { chatSocket: socket });
        socket.onmessage = (event) => frames.push(JSON.parse(String(event.data)));
        socket.onopen = () => resolve();
        socket.onerror = () => reject(new Error('customer socket failed'));
      }),
    { token: customer.accessToken },
  );
  const customerFrames = () =>
    customerPage.evaluate(
      () => (window as unknown as { chatFrames: { event: number; data?: { message?: { body: string; id: number } } }[] }).chatFrames,
    );

  // Customer typing (11) shows on the console; the stop (12) clears it.
  await customerPage.evaluate(
    (id) =>
      (window as unknown as { chatSocket: WebSocket }).chatSocket.send(
        JSON.stringify({ event: 11, data: { orderId: id, chat: 'support' } }),
      ),
    orderId,
  );
  await expect(page.getByText('The customer is typing…')).toBeVisible(SLOW);
  await customerPage.evaluate(
    (id) =>
      (window as unknown as { chatSocket: WebSocket }).chatSocket.send(
        JSON.stringify({ event: 12, data: { orderId: id, chat: 'support' } }),
      ),
    orderId,
  );
  await expect(page.getByText('The customer is typing…')).toHaveCount(0, SLOW);

  // The customer's message arrives live, without a reload, and support's console marks it read.
  const text = `Where is my draft? ${Date.now()}`;
  const sent = await customerPage.evaluate(
    async ({ id, token, body }) => {
      const form = new FormData();
      form.append('direction', '2');
      form.append('message', JSON.stringify({ body }));
      const response = await fetch(`/chat/api/customers/orders/${id}/messages`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Idempotency-Key': `e2e-${Date.now()}` },
        body: form,
      });
      return { status: response.status, body: (await response.json()) as { id: number } };
    },
    { id: orderId, token: customer.accessToken, body: text },
  );
  expect(sent.status).toBe(200);
  await expect(log.getByText(text)).toBeVisible(SLOW);
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/chat/api/customers/orders/${orderId}/messages/unread`, { headers: bearer(customer) })).json()) as {
            support: number;
          }
        ).support,
      SLOW,
    )
    .toBe(0);
  await expect
    .poll(async () => (await customerFrames()).some((f) => f.event === 6), {
      ...SLOW,
      message: 'the customer learns that support read the message (event 6)',
    })
    .toBe(true);

  // Support types (13) and replies; the customer's socket gets both, then the reply shows "Read" once the customer reads it.
  const reply = `Tomorrow morning ${Date.now()}`;
  await page.getByLabel('Message to the customer', { exact: true }).pressSequentially(reply, { delay: 5 });
  await expect.poll(async () => (await customerFrames()).some((f) => f.event === 13), SLOW).toBe(true);
  await page.getByLabel('Message to the customer', { exact: true }).press('Enter');
  await expect(log.getByText(reply)).toBeVisible(SLOW);
  await expect.poll(async () => (await customerFrames()).some((f) => f.event === 14), SLOW).toBe(true);
  await expect
    .poll(
      async () => (await customerFrames()).find((f) => f.event === 1 && f.data?.message?.body === reply)?.data?.message?.id ?? null,
      SLOW,
    )
    .not.toBeNull();
  const replyId = (await customerFrames()).find((f) => f.event === 1 && f.data?.message?.body === reply)?.data?.message?.id;
  await axeBothWidths(page, 'order chat, reply sent');
  const read = await request.put(`/chat/api/customers/orders/${orderId}/messages/read`, {
    headers: bearer(customer),
    data: { messages: String(replyId) },
  });
  expect(read.status()).toBe(200);
  await expect(log.locator('li', { hasText: reply }).getByText('Read', { exact: true })).toBeVisible(SLOW);
  await shoot(page, 'staff-order-chat');
  await context.close();
});

test('support completes the delivered order and refunds it: the customer can no longer download the writer file, support still can', async ({
  page,
  request,
}) => {
  const support = await signInApi(request, SUPPORT.email, SUPPORT.password);
  const files = (await (await request.get(`/api/en/orders/${orderId}/writers/files`, { headers: bearer(customer) })).json()) as {
    id: number;
  }[];
  const fileId = files[0]?.id;
  expect(fileId).toBeDefined();
  expect((await request.get(`/api/en/orders/files/${fileId}`, { headers: bearer(customer) })).status()).toBe(200);

  await openSignedIn(page, support, `/staff/orders/${orderId}`);
  const status = page.getByRole('form', { name: 'Change status' });
  // Delivered (a submitted delivery, ADR 0084): Completed is offered now.
  await expect(status.getByLabel('Move to').locator('option')).toHaveText(
    ['Choose a move…', 'Completed', 'Hold', 'Modified', 'Canceled', 'Refunded'],
    SLOW,
  );
  await status.getByLabel('Move to').selectOption({ label: 'Completed' });
  await status.getByRole('button', { name: 'Change status' }).click();
  await expect(page.getByText('Status changed to Completed')).toBeVisible(SLOW);
  await expect(status.getByLabel('Move to').locator('option')).toHaveText(['Choose a move…', 'Refunded'], SLOW);

  await status.getByLabel('Move to').selectOption({ label: 'Refunded' });
  await status.getByRole('button', { name: 'Change status' }).click();
  const dialog = page.getByRole('dialog', { name: 'Refund this order?' });
  await dialog.getByLabel('Reason').fill('The customer disputed the quality');
  await shoot(page, 'staff-refund-dialog');
  await dialog.getByRole('button', { name: 'Refund order' }).click();
  await expect(page.getByText('Status changed to Refunded')).toBeVisible(SLOW);
  await expect(page.getByText('Refunded is final: no move is allowed from it.')).toBeVisible(SLOW);

  // The customer: no writer files listed, the download answers 404; a refund in their transactions.
  const listed = await request.get(`/api/en/orders/${orderId}/writers/files`, { headers: bearer(customer) });
  expect(await listed.json()).toEqual([]);
  expect((await request.get(`/api/en/orders/files/${fileId}`, { headers: bearer(customer) })).status()).toBe(404);
  const transactions = (await (await request.get('/api/en/customers/transactions', { headers: bearer(customer) })).json()) as {
    transactions: { orderId: number; type: string }[];
  };
  expect(transactions.transactions.filter((t) => t.orderId === orderId).map((t) => t.type)).toEqual(['refund', 'payment']);

  // Support still downloads it from the order's files.
  const fileList = page.getByRole('list', { name: 'Order files' });
  await expect(fileList.getByText('final-paper.pdf')).toBeVisible(SLOW);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    fileList.getByRole('button', { name: 'Download final-paper.pdf' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('final-paper.pdf');
  await axeBothWidths(page, 'refunded order, support');
  await shoot(page, 'staff-order-refunded');
});
