import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  type Account,
  bearer,
  DEMO,
  expect,
  linkFromMail,
  openSignedIn,
  placeOrder,
  shoot,
  signInApi,
  signUp,
  SLOW,
  test,
  type Tokens,
  runNotificationsJob,
} from './support';

/** Revision journeys (ADR 0044): free revisions of a completed order, the customer's side and support's. */
test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n');
const REVISED = `Revised essay delivered at ${Date.now()}\n`;

let customer: Account;
let orderId: number;

const support = (request: APIRequestContext) => signInApi(request, 'support@example.com', 'support12345');
const setOrderStatus = async (request: APIRequestContext, staff: Tokens, id: number, status: number) => {
  const response = await request.put(`/api/staff/orders/${id}/status`, { headers: bearer(staff), data: { status } });
  expect(response.status(), await response.text()).toBe(200);
};
const revisionsTab = (page: Page) => page.getByRole('tab', { name: 'Revisions' });
const wizard = (page: Page) => page.getByRole('dialog', { name: 'Request a revision' });

test('enables the Revisions tab only when the order is completed', async ({ page, request }) => {
  customer = await signUp(request, 'revisions');
  orderId = (await placeOrder(request, customer.accessToken, 'An essay that will need a revision')).id;
  await openSignedIn(page, customer, `/orderinfo/${orderId}/details`);
  await expect(page.getByRole('heading', { level: 1, name: `Order #${orderId}` })).toBeVisible(SLOW);
  await expect(revisionsTab(page)).toBeDisabled();
  const staff = await support(request);
  // ADR 0071: paid through money (a payment support records), in progress through the writer's
  // assignment, completed once a file is delivered and the delivery submitted (ADR 0084).
  const steps = [
    () => request.post(`/api/staff/orders/${orderId}/payments`, { headers: bearer(staff), data: { reference: `E2E-REV-${orderId}` } }),
    async () => {
      const writer = await signInApi(request, 'writer@example.com', 'writer12345');
      const me = (await (await request.get('/api/staff/me', { headers: bearer(writer) })).json()) as { id: number };
      return request.put(`/api/staff/orders/${orderId}/writer`, { headers: bearer(staff), data: { idWriter: me.id } });
    },
  ];
  for (const step of steps) {
    const response = await step();
    expect(response.status(), await response.text()).toBe(200);
    await page.reload();
    await expect(revisionsTab(page)).toBeDisabled(SLOW);
  }
  const delivered = await request.post(`/api/staff/orders/${orderId}/files`, {
    headers: bearer(staff),
    multipart: { file: { name: 'essay.pdf', mimeType: 'application/pdf', buffer: PDF } },
  });
  expect(delivered.status(), await delivered.text()).toBe(200);
  // ADR 0084: the delivery submitted (the writer's "this is the work"); completed only after it.
  const submitted = await request.post(`/api/staff/orders/${orderId}/delivery`, { headers: bearer(staff), data: { message: 'Done.' } });
  expect(submitted.status(), await submitted.text()).toBe(200);
  await setOrderStatus(request, staff, orderId, 5);
  await page.reload();
  await expect(revisionsTab(page)).toBeEnabled(SLOW);
  // The order page shows the revision window (14 days: a one-page paper) and offers the deadline to a calendar.
  await expect(page.getByTestId('revision-window')).toHaveText(/^Free revisions until .+ \(14 days left\)$/, SLOW);
  const [ics] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Add deadline to calendar' }).click()]);
  expect(ics.suggestedFilename()).toBe(`order-${orderId}-deadline.ics`);
  const calendar = await readFile(await ics.path(), 'utf8');
  expect(calendar).toMatch(/BEGIN:VEVENT\r\n/);
  expect(calendar).toMatch(/DTEND:\d{8}T\d{6}Z\r\n/);
  expect(calendar).toContain(`X-WR-TIMEZONE:${await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)}`);
  await shoot(page, 'revisions-order-completed');
});

test('requests a revision through the three steps with a file; what was typed survives a reload', async ({ page }) => {
  await openSignedIn(page, customer, `/orderinfo/${orderId}/revisions`);
  await expect(page.getByText('No revisions yet')).toBeVisible(SLOW);
  await page.getByRole('button', { name: 'Request a revision' }).click();
  const dialog = wizard(page);
  await expect(dialog.getByRole('heading', { name: 'Revision Policy' })).toBeVisible(SLOW);
  // Step 1: the policy must be accepted to go on.
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await dialog.getByLabel('I have read and accept the Revision Policy').check();
  await shoot(page, 'revisions-wizard-policy');
  await dialog.getByRole('button', { name: 'Next' }).click();
  // Step 2: at least one category and a description.
  await expect(dialog.getByRole('heading', { name: 'Nature of revision' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await dialog.getByLabel('Grammar and style').check();
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await dialog.getByLabel('Description').fill('Please fix the grammar in the second section.');

  await page.reload();
  await page.getByRole('button', { name: 'Request a revision' }).click(SLOW);
  await expect(dialog.getByRole('heading', { name: 'Nature of revision' })).toBeVisible(SLOW);
  await expect(dialog.getByLabel('Description')).toHaveValue('Please fix the grammar in the second section.');
  await expect(dialog.getByLabel('Grammar and style')).toBeChecked();

  await dialog.getByTestId('revision-file-input').setInputFiles([
    { name: 'notes.pdf', mimeType: 'application/pdf', buffer: PDF },
    { name: 'virus.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') },
  ]);
  await expect(dialog.getByText('Invalid file format. Acceptable file formats:', { exact: false })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Next' })).toBeDisabled();
  await dialog.getByRole('button', { name: 'Remove virus.exe' }).click();
  await shoot(page, 'revisions-wizard-nature');
  await dialog.getByRole('button', { name: 'Next' }).click();
  // Step 3: Finish only with a level; each level shows its hours and the due date.
  await expect(dialog.getByRole('heading', { name: 'Time-frame' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Finish' })).toBeDisabled();
  for (const hours of [12, 16, 20, 24]) await expect(dialog.getByText(`${hours} hours`)).toBeVisible();
  await dialog.getByRole('radio', { name: /Minor changes · 12 hours/ }).check();
  await shoot(page, 'revisions-wizard-time-frame');
  await dialog.getByRole('button', { name: 'Finish' }).click();

  await expect(page.getByRole('region', { name: 'Notifications' }).getByText('Revision has been successfully created')).toBeVisible(SLOW);
  await expect(dialog).toHaveCount(0);
  const row = page.getByTestId('revision-row');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Requested');
  await expect(row).toContainText('Grammar and style');
  await expect(row).toContainText(/left/);
  await expect(page.getByRole('button', { name: 'Request a revision' })).toBeDisabled();
  await expect(page.getByTestId('revisions-tab').getByText('You have one active revision')).toBeVisible();
  // SPEC §2: the tab carries the same words as its tooltip while the revision is active.
  await expect(revisionsTab(page)).toHaveAccessibleDescription('You have one active revision', SLOW);
  await shoot(page, 'revisions-list-active');

  await row.click();
  const info = page.getByTestId('revision-info');
  await expect(info.getByRole('region', { name: 'Your files' }).getByText('notes.pdf')).toBeVisible(SLOW);
});

test('support completes the revision with a writer file; the customer opens the mailed link and downloads it', async ({
  page,
  request,
}) => {
  const staff = await support(request);
  const listed = await request.get(`/api/staff/revisions?idOrder=${orderId}`, { headers: bearer(staff) });
  expect(listed.status()).toBe(200);
  const [revision] = ((await listed.json()) as { revisions: { id: number }[] }).revisions;
  expect(revision).toBeDefined();
  const id = revision?.id ?? 0;
  const move = async (status: number, expected = 200) => {
    const response = await request.put(`/api/staff/revisions/${id}/status`, { headers: bearer(staff), data: { status } });
    expect(response.status(), await response.text()).toBe(expected);
  };
  await move(5, 422);
  await move(2);
  const delivered = await request.post(`/api/staff/revisions/${id}/writers/files`, {
    headers: bearer(staff),
    multipart: { file: { name: 'revised-essay.txt', mimeType: 'text/plain', buffer: Buffer.from(REVISED) } },
  });
  expect(delivered.status(), await delivered.text()).toBe(200);
  await move(12);
  await move(5);

  await runNotificationsJob(request);
  const link = await linkFromMail(request, customer.email, `revision=${id}`);
  await openSignedIn(page, customer, link);
  const info = page.getByTestId('revision-info');
  await expect(info.locator('[data-revision-status]').first()).toHaveText('Completed', SLOW);
  const writerFiles = info.getByRole('region', { name: "Writer's files" });
  await expect(writerFiles.getByText('revised-essay.txt')).toBeVisible(SLOW);
  await shoot(page, 'revisions-info-completed');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    writerFiles.getByRole('button', { name: 'Download revised-essay.txt' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('revised-essay.txt');
  expect(await readFile(await download.path(), 'utf8')).toBe(REVISED);
  const [ics] = await Promise.all([page.waitForEvent('download'), info.getByRole('button', { name: 'Add due date to calendar' }).click()]);
  expect(await readFile(await ics.path(), 'utf8')).toContain(`SUMMARY:Revision #${id} of order #${orderId} due`);
  await page.keyboard.press('Escape');
  // The revision is over: a new one may be requested.
  await expect(page.getByRole('button', { name: 'Request a revision' })).toBeEnabled(SLOW);
});

test('refuses a revision once the free-revision period has closed', async ({ page, request }) => {
  // The demo's older completed order (6 pages, completed 31 days ago) is hidden; shown for this journey only.
  const tokens = await signInApi(request, DEMO.email, DEMO.password);
  const hidden = await request.get('/api/en/sites/categories/1/orders?limit=100&page=1&hidden=1', { headers: bearer(tokens) });
  const old = ((await hidden.json()) as { orders: { id: number; status: number }[] }).orders.find((o) => o.status === 5);
  expect(old).toBeDefined();
  const id = old?.id ?? 0;
  expect((await request.put(`/api/en/orders/${id}/unhide`, { headers: bearer(tokens) })).status()).toBe(200);
  try {
    await openSignedIn(page, tokens, `/orderinfo/${id}/revisions`);
    await expect(page.getByTestId('revision-window')).toHaveText(/^Free revisions ended on /, SLOW);
    await expect(page.getByRole('button', { name: 'Request a revision' })).toBeDisabled();
    await expect(page.getByText('The free revision period of this order has ended')).toBeVisible();
    await shoot(page, 'revisions-window-closed');
    const refused = await request.post(`/api/en/orders/${id}/revisions`, {
      headers: bearer(tokens),
      data: { category: [1], describeProblem: 'Too late?', revisionLevel: 1 },
    });
    expect(refused.status()).toBe(409);
    expect(await refused.json()).toEqual({ message: 'The free revision period of this order has ended' });
  } finally {
    await request.put(`/api/en/orders/${id}/hide`, { headers: bearer(tokens) });
  }
});
