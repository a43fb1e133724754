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
  runNotificationsJob,
} from './support';

/**
 * ADR 0084, CONTRACT "After payment": the writer delivers; the order page opens on the delivery with the
 * review banner; the customer accepts with a review, asks for changes, or lets the clock run out (the job
 * run through the dev-only route as if days had passed); proposed deadlines accepted, declined and left
 * unanswered. axe on every state at the page's width and at 390 px.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);
const HOUR = 3_600_000;

let customer: Account;
let support: Tokens;
let writer: Tokens;
let writerId: number;

const axeBothWidths = async (page: Page, state: string) => {
  await expectNoAxeViolations(page, `${state}, ${page.viewportSize()?.width ?? 0} px`);
  const viewport = page.viewportSize();
  if (viewport && viewport.width > 390) {
    await page.setViewportSize({ width: 390, height: 844 });
    await openNavigation(page);
    await expectNoAxeViolations(page, `${state}, 390 px`);
    await page.setViewportSize(viewport);
  }
};

/** An order paid (support records the transfer) and assigned to the demo writer: in progress. */
const inProgressOrder = async (request: APIRequestContext, topic: string): Promise<number> => {
  const { id } = await placeOrder(request, customer.accessToken, topic);
  const paid = await request.post(`/api/staff/orders/${id}/payments`, {
    headers: bearer(support),
    data: { reference: `E2E-${id}-${Date.now()}` },
  });
  expect(paid.status(), await paid.text()).toBe(200);
  const assigned = await request.put(`/api/staff/orders/${id}/writer`, { headers: bearer(support), data: { idWriter: writerId } });
  expect(assigned.status(), await assigned.text()).toBe(200);
  return id;
};

/** The writer uploads the paper and submits it as the delivery. */
const deliver = async (request: APIRequestContext, orderId: number, message = 'Here is your essay: the sources are at the end.') => {
  const upload = await request.post(`/api/staff/orders/${orderId}/files`, {
    headers: bearer(writer),
    multipart: { file: { name: 'final-essay.txt', mimeType: 'text/plain', buffer: Buffer.from('The final essay.\n'.repeat(40)) } },
  });
  expect(upload.status(), await upload.text()).toBe(200);
  const submitted = await request.post(`/api/staff/orders/${orderId}/delivery`, { headers: bearer(writer), data: { message } });
  expect(submitted.status(), await submitted.text()).toBe(200);
};

const propose = async (request: APIRequestContext, orderId: number, hours: number): Promise<void> => {
  const order = (await (await request.get(`/api/staff/orders/${orderId}`, { headers: bearer(support) })).json()) as { deadline: string };
  const response = await request.post(`/api/staff/orders/${orderId}/extensions`, {
    headers: bearer(writer),
    data: {
      deadline: new Date(new Date(order.deadline).getTime() + hours * HOUR).toISOString(),
      reason: 'Two of the sources arrived late.',
    },
  });
  expect(response.status(), await response.text()).toBe(200);
};

/** ADR 0084: the job, run as if the time were `hoursFromNow` later (the dev-only route). */
const runJobLater = async (request: APIRequestContext, hoursFromNow: number) => {
  const response = await request.post('/api/dev/after-payment/run', {
    data: { at: new Date(Date.now() + hoursFromNow * HOUR).toISOString() },
  });
  expect(response.status(), await response.text()).toBe(200);
};

test.beforeAll(async ({ request }) => {
  customer = await signUp(request, 'delivery');
  support = await signInApi(request, SUPPORT.email, SUPPORT.password);
  writer = await signInApi(request, WRITER.email, WRITER.password);
  writerId = ((await (await request.get('/api/staff/me', { headers: bearer(writer) })).json()) as { id: number }).id;
});

test('deliver → the order page opens on the delivery with the review banner → accept with a review', async ({ page, request }) => {
  const orderId = await inProgressOrder(request, 'An essay the writer delivers');
  await deliver(request, orderId);

  // The dashboard card carries the action.
  await openSignedIn(page, customer, '/dashboard');
  const review = page.getByRole('link', { name: `Review delivery of order #${orderId}` });
  await expect(review).toBeVisible(SLOW);
  await review.click();

  const delivery = page.getByRole('region', { name: 'Your delivery' });
  await expect(delivery).toBeVisible(SLOW);
  await expect(delivery.getByText(/Review by .+ \(your time\) · 3 days left/)).toBeVisible();
  await expect(delivery.getByRole('button', { name: 'Download final-essay.txt' })).toBeVisible();
  await expect(delivery.getByText('Here is your essay: the sources are at the end.')).toBeVisible();
  // The countdown of a finished job is gone.
  await expect(page.getByText(/\d+ min left$/)).toHaveCount(0);
  await axeBothWidths(page, 'delivery awaiting review');
  await shoot(page, 'delivery-review');

  await delivery.getByRole('button', { name: 'Accept', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Accept the delivery' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('radio', { name: '4.5 out of 5 stars' }).check({ force: true });
  await dialog.getByLabel('Review (optional)').fill('Clear structure, delivered early.');
  await axeBothWidths(page, 'accept dialog');
  await shoot(page, 'delivery-accept-dialog');
  await dialog.getByRole('button', { name: 'Accept and complete' }).click();
  await expect(dialog).toBeHidden(SLOW);
  await expect(page.getByText('You accepted this delivery.')).toBeVisible(SLOW);
  await expect(page.getByText('Completed', { exact: true }).first()).toBeVisible();
  const order = (await (await request.get(`/api/en/orders/${orderId}`, { headers: bearer(customer) })).json()) as {
    status: number;
    feedback: { rating: number; comment: string } | null;
  };
  expect(order).toMatchObject({ status: 5, feedback: { rating: 4.5, comment: 'Clear structure, delivered early.' } });
  await axeBothWidths(page, 'accepted');

  // Accepting twice is refused.
  const again = await request.post(`/api/en/orders/${orderId}/accept`, { headers: bearer(customer), data: {} });
  expect(again.status()).toBe(409);
});

test('ask for changes: the clock stops and the message reaches the writer chat', async ({ page, request }) => {
  const orderId = await inProgressOrder(request, 'An essay that needs changes');
  await deliver(request, orderId);
  await openSignedIn(page, customer, `/orderinfo/${orderId}`);
  const delivery = page.getByRole('region', { name: 'Your delivery' });
  await delivery.getByRole('button', { name: 'Ask for changes' }).click();
  const dialog = page.getByRole('dialog', { name: 'Ask for changes' });
  await dialog.getByRole('button', { name: 'Send to the writer' }).click();
  await expect(dialog.getByText('Tell the writer what to change.')).toBeVisible();
  await dialog.getByLabel('What should the writer change?').fill('Please add a counter-argument section.');
  await axeBothWidths(page, 'changes dialog');
  await dialog.getByRole('button', { name: 'Send to the writer' }).click();
  await expect(page.getByText('You asked for changes. Your writer is working on them; the next delivery will show here.')).toBeVisible(
    SLOW,
  );
  await expect(delivery.getByText(/Review by/)).toHaveCount(0);
  await axeBothWidths(page, 'changes requested');
  await shoot(page, 'delivery-changes-requested');
  const chat = (await (await request.get(`/chat/api/customers/orders/${orderId}/messages`, { headers: bearer(customer) })).json()) as {
    messages: { body: string; direction: { id: number } }[];
  };
  expect(chat.messages.map((m) => [m.body, m.direction.id])).toContainEqual(['Please add a counter-argument section.', 1]);
});

test('the review clock runs out (time injected): the order completes by itself and the customer is told', async ({ page, request }) => {
  const orderId = await inProgressOrder(request, 'An essay nobody reviews');
  await deliver(request, orderId);
  await runJobLater(request, 3 * 24 + 1);
  await openSignedIn(page, customer, `/orderinfo/${orderId}`);
  await expect(page.getByText('The review time ended, so the order completed by itself.')).toBeVisible(SLOW);
  await axeBothWidths(page, 'auto-completed');
  await shoot(page, 'delivery-auto-completed');
  // ADR 0088: the mail comes from the notifications job, folding the order's events of those minutes.
  await runNotificationsJob(request, 3 * 24 * 60 + 70);
  const mails = (await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(customer.email)}`)).json()) as {
    messages: { subject: string }[];
  };
  expect(mails.messages.map((m) => m.subject)).toContainEqual(
    expect.stringMatching(new RegExp(`#${orderId}\\b.*(is complete|completed)`, 'i')),
  );
});

test('a proposed deadline: accepted, declined, and left unanswered', async ({ page, request }) => {
  const accepted = await inProgressOrder(request, 'An essay that needs 18 more hours');
  await propose(request, accepted, 18);
  await openSignedIn(page, customer, `/orderinfo/${accepted}`);
  const card = page.getByRole('region', { name: /Your writer asks for 18 more hours: new deadline .+ \(your time\)/ });
  await expect(card).toBeVisible(SLOW);
  await expect(card.getByRole('link', { name: 'Talk to support' })).toHaveAttribute(
    'href',
    `/orderinfo/${accepted}/messages?panel=support`,
  );
  await axeBothWidths(page, 'extension request');
  await shoot(page, 'delivery-extension-request');
  await card.getByRole('button', { name: 'Accept new deadline' }).click();
  await expect(card).toBeHidden(SLOW);
  await expect(page.getByText('The new deadline is set.')).toBeVisible();

  const declined = await inProgressOrder(request, 'An essay whose deadline stays');
  const before = ((await (await request.get(`/api/en/orders/${declined}`, { headers: bearer(customer) })).json()) as { deadline: string })
    .deadline;
  await propose(request, declined, 24);
  await page.goto(`/orderinfo/${declined}`);
  const declineCard = page.getByRole('region', { name: /Your writer asks for 24 more hours/ });
  await declineCard.getByRole('button', { name: 'Decline' }).click();
  await expect(declineCard).toBeHidden(SLOW);
  const after = ((await (await request.get(`/api/en/orders/${declined}`, { headers: bearer(customer) })).json()) as { deadline: string })
    .deadline;
  expect(after).toBe(before);

  const silent = await inProgressOrder(request, 'An essay whose customer is away');
  await propose(request, silent, 30);
  await runJobLater(request, 25);
  await page.goto(`/orderinfo/${silent}`);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${silent}` })).toBeVisible(SLOW);
  await expect(page.getByRole('region', { name: /Your writer asks/ })).toHaveCount(0);
  await axeBothWidths(page, 'extension expired');
  // Support is alerted; a late answer is refused and the original deadline stands.
  const alerts = (await (await request.get('/api/staff/extensions/unanswered', { headers: bearer(support) })).json()) as {
    proposals: { id: number; orderId: number }[];
  };
  const alert = alerts.proposals.find((p) => p.orderId === silent);
  expect(alert).toBeTruthy();
  const late = await request.put(`/api/en/orders/${silent}/extensions/${alert?.id ?? 0}`, {
    headers: bearer(customer),
    data: { accept: true },
  });
  expect(late.status()).toBe(409);
});

test('the console: the writer submits a delivery and proposes a new deadline', async ({ page, request }) => {
  const orderId = await inProgressOrder(request, 'An essay delivered from the console');
  const upload = await request.post(`/api/staff/orders/${orderId}/files`, {
    headers: bearer(writer),
    multipart: { file: { name: 'draft.txt', mimeType: 'text/plain', buffer: Buffer.from('Draft.\n') } },
  });
  expect(upload.status()).toBe(200);
  await openSignedIn(page, writer, `/staff/orders/${orderId}`);
  const propose = page.getByRole('form', { name: 'Propose a new deadline' });
  await expect(propose).toBeVisible(SLOW);
  await propose.getByLabel('Reason').fill('The customer added a source.');
  await propose.getByRole('button', { name: 'Propose a new deadline' }).click();
  await expect(page.getByText(/^Proposed: /)).toBeVisible(SLOW);
  const form = page.getByRole('form', { name: 'Submit the delivery' });
  await form.getByLabel('Message to the customer (optional)').fill('The essay is ready.');
  await axeBothWidths(page, 'console delivery');
  await shoot(page, 'delivery-console');
  await form.getByRole('button', { name: 'Submit delivery' }).click();
  await expect(form.getByText(/Delivery 1 on .+: waiting for the customer’s review/)).toBeVisible(SLOW);
  // Nothing new to deliver: the server's refusal is shown.
  await form.getByRole('button', { name: 'Submit delivery' }).click();
  await expect(form.getByText('The last delivery is waiting for the customer’s review.')).toBeVisible(SLOW);
});
