import type { APIRequestContext, Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import {
  type Account,
  bearer,
  essayOrderBody,
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
 * ADR 0089: the back office through a business day. The writer reads the whole brief and downloads the
 * customer's file, delivers two files and submits the delivery; support finds the order in "Paid and
 * unassigned", assigns the writer by name and sees the order move between the views; support works a
 * revision in the console; support applies one unapplied payment and refunds another. axe on every state,
 * at 1280 and 390 px.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(150_000);

const BRIEF = 'Compare the Hanseatic trade routes with the Venetian ones; cite at least two primary sources.';
const PDF = Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(120_000, 0x41), Buffer.from('\n%%EOF\n')]);

let customer: Account;
let support: Tokens;
let writer: Tokens;
let writerMe: { id: number; firstName: string; lastName: string };
let orderId: number;

const axeBothWidths = async (page: Page, state: string) => {
  await expectNoAxeViolations(page, `${state}, 1280 px`);
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await openNavigation(page);
  await expectNoAxeViolations(page, `${state}, 390 px`);
  // Nothing widens the narrow page.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  if (viewport) await page.setViewportSize(viewport);
};

const ok = async (response: Awaited<ReturnType<APIRequestContext['get']>>) => {
  expect(response.status(), await response.text()).toBe(200);
  return response;
};

/** An order whose first checkout was paid after an edit changed its price: the money is parked for support. */
const parkedPayment = async (request: APIRequestContext, topic: string) => {
  const order = await placeOrder(request, customer.accessToken, topic);
  const checkout = await request.get(`/checkout/fondy/order/${order.uid}?hashDevice=e2e-backoffice`, { maxRedirects: 0 });
  expect(checkout.status()).toBe(302);
  const path = new URL(checkout.headers().location ?? '', 'http://x').pathname;
  await ok(
    await request.put(`/api/en/sites/categories/1/orders/${order.id}`, {
      headers: bearer(customer),
      data: { ...essayOrderBody(topic), pages: 2 },
    }),
  );
  const paid = await request.post(`${path}/pay`, { maxRedirects: 0 });
  expect(paid.status()).toBeLessThan(400);
  return order;
};

test.beforeAll(async ({ request }) => {
  customer = await signUp(request, 'backoffice');
  support = await signInApi(request, SUPPORT.email, SUPPORT.password);
  writer = await signInApi(request, WRITER.email, WRITER.password);
  writerMe = (await (await ok(await request.get('/api/staff/me', { headers: bearer(writer) }))).json()) as typeof writerMe;
  orderId = (
    (await (
      await ok(
        await request.post('/api/en/sites/categories/1/orders', {
          headers: bearer(customer),
          data: { ...essayOrderBody('Trade routes of the Hanseatic League'), paperDetails: BRIEF, sources: 2, premiumWriter: 2 },
        }),
      )
    ).json()) as { id: number }
  ).id;
  await ok(
    await request.post(`/api/en/orders/${orderId}/customers/files`, {
      headers: bearer(customer),
      multipart: { file: { name: 'lecture-notes.pdf', mimeType: 'application/pdf', buffer: PDF } },
    }),
  );
  // Paid by bank transfer: the order waits in "Paid and unassigned".
  await ok(
    await request.post(`/api/staff/orders/${orderId}/payments`, { headers: bearer(support), data: { reference: `E2E-BO-${orderId}` } }),
  );
});

test('support finds the order in "Paid and unassigned", assigns the writer by name, and sees it move views', async ({ page }) => {
  await openSignedIn(page, support, '/staff');
  const views = page.getByRole('navigation', { name: 'Views' });
  const tile = views.getByRole('button', { name: /Paid and unassigned/ });
  await expect(tile).toBeVisible(SLOW);
  await tile.click();
  await expect(page).toHaveURL(/view=paidUnassigned/);
  const orders = page.getByRole('list', { name: 'Orders' });
  const row = orders.getByRole('link', { name: new RegExp(`#${orderId}\\b`) });
  await expect(row).toBeVisible(SLOW);
  // The full title, the customer's name and email.
  await expect(row).toContainText('Trade routes of the Hanseatic League');
  await expect(row).toContainText(customer.email);
  await axeBothWidths(page, 'queue, paid and unassigned');
  await shoot(page, 'backoffice-queue-unassigned');

  await row.click();
  await expect(page.getByRole('heading', { level: 1, name: `Order #${orderId}` })).toBeVisible(SLOW);
  const assign = page.getByRole('form', { name: 'Assign writer' });
  await page.getByRole('searchbox', { name: 'Find a writer' }).fill(writerMe.firstName);
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await assign.getByLabel(new RegExp(`${writerMe.firstName} ${writerMe.lastName}`)).check();
  await axeBothWidths(page, 'writer chosen');
  await assign.getByRole('button', { name: /^Assign/ }).click();
  await expect(page.getByText(`${writerMe.firstName} ${writerMe.lastName} assigned`)).toBeVisible(SLOW);
  await expect(page.getByRole('main').getByText('In progress', { exact: true }).first()).toBeVisible(SLOW);
  await shoot(page, 'backoffice-order-assigned');

  // Back in the queue: out of "Paid and unassigned", in the in-progress orders.
  await page.goto('/staff?view=paidUnassigned');
  await expect(page.getByRole('list', { name: 'Orders' }).getByRole('link', { name: new RegExp(`#${orderId}\\b`) })).toHaveCount(0, SLOW);
  await page.goto(`/staff?status=3&q=${orderId}`);
  await expect(page.getByRole('list', { name: 'Orders' }).getByRole('link', { name: new RegExp(`#${orderId}\\b`) })).toBeVisible(SLOW);
});

test('the writer reads the brief, downloads the customer’s file, delivers two files and submits', async ({ page }) => {
  await openSignedIn(page, writer, '/staff');
  await expect(page.getByRole('heading', { level: 1, name: 'My orders' })).toBeVisible(SLOW);
  const row = page.getByRole('list', { name: 'Orders' }).getByRole('link', { name: new RegExp(`#${orderId}\\b`) });
  await expect(row).toContainText(/Pay \$/, SLOW);
  await row.click();
  const brief = page.getByRole('region', { name: 'Brief' });
  await expect(brief.getByText(BRIEF)).toBeVisible(SLOW);
  await expect(brief).toContainText('Premium writer');
  await expect(page.getByRole('region', { name: 'Details' })).toContainText('Your pay');
  await expect(page.getByRole('region', { name: 'Details' })).not.toContainText('Price');
  await axeBothWidths(page, 'order view, writer');
  await shoot(page, 'backoffice-writer-brief');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    brief.getByRole('list', { name: 'Customer’s files' }).getByRole('button', { name: 'Download lecture-notes.pdf' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('lecture-notes.pdf');
  expect((await readFile(await download.path())).length).toBe(PDF.length);

  const deliver = page.getByRole('form', { name: 'Deliver files' });
  await deliver.getByLabel('Files for the customer').setInputFiles([
    { name: 'final-paper.pdf', mimeType: 'application/pdf', buffer: PDF },
    { name: 'sources.txt', mimeType: 'text/plain', buffer: Buffer.from('Primary sources.\n'.repeat(50)) },
  ]);
  await deliver.getByRole('button', { name: 'Upload 2 files' }).click();
  await expect(deliver.getByText('Uploaded: final-paper.pdf')).toBeVisible(SLOW);
  await expect(deliver.getByText('Uploaded: sources.txt')).toBeVisible(SLOW);
  const submit = page.getByRole('form', { name: 'Submit the delivery' });
  await submit.getByLabel('Message to the customer (optional)').fill('Both files are ready.');
  await submit.getByRole('button', { name: 'Submit delivery' }).click();
  await expect(submit.getByText(/Delivery 1 on .+: waiting for the customer’s review/)).toBeVisible(SLOW);
  await axeBothWidths(page, 'delivered, writer');
  await shoot(page, 'backoffice-writer-delivered');
  const detail = (await (await ok(await page.request.get(`/api/en/orders/${orderId}`, { headers: bearer(customer) }))).json()) as {
    delivery: { files: { name: string }[] } | null;
  };
  expect(detail.delivery?.files.map((f) => f.name).sort()).toEqual(['final-paper.pdf', 'sources.txt']);
});

test('support works the customer’s revision in the console', async ({ page, request }) => {
  await ok(await request.post(`/api/en/orders/${orderId}/accept`, { headers: bearer(customer), data: {} }));
  await ok(
    await request.post(`/api/en/orders/${orderId}/revisions`, {
      headers: bearer(customer),
      data: { category: [1], describeProblem: 'Please add the Venetian sources.', revisionLevel: 1 },
    }),
  );
  await openSignedIn(page, support, '/staff?view=revisionsDue');
  const row = page.getByRole('list', { name: 'Orders' }).getByRole('link', { name: new RegExp(`#${orderId}\\b`) });
  await expect(row).toContainText('Revision open', SLOW);
  await row.click();
  const revisions = page.getByRole('list', { name: 'Revisions' });
  await expect(revisions.getByText('Please add the Venetian sources.')).toBeVisible(SLOW);
  await axeBothWidths(page, 'revision requested');
  await revisions.getByRole('button', { name: 'Start work' }).click();
  await expect(revisions).toContainText('In progress', SLOW);
  const revised = revisions.getByRole('form', { name: /^Revised file for revision/ });
  await revised.getByLabel('Revised file').setInputFiles({ name: 'final-paper-v2.pdf', mimeType: 'application/pdf', buffer: PDF });
  await revised.getByRole('button', { name: 'Upload revised file' }).click();
  await expect(page.getByText(/final-paper-v2\.pdf uploaded to revision/)).toBeVisible(SLOW);
  await revisions.getByRole('button', { name: 'Hand in for checking' }).click();
  await expect(revisions).toContainText('Verifying', SLOW);
  await revisions.getByRole('button', { name: 'Mark completed' }).click();
  await expect(revisions).toContainText('Completed', SLOW);
  await axeBothWidths(page, 'revision completed');
  await shoot(page, 'backoffice-revision');
});

test('support applies one unapplied payment and refunds another', async ({ page, request }) => {
  const toApply = await parkedPayment(request, 'Parked, then edited back');
  const toRefund = await parkedPayment(request, 'Parked and refunded');
  // The first order asks what was paid again: its money can be applied.
  await ok(
    await request.put(`/api/en/sites/categories/1/orders/${toApply.id}`, {
      headers: bearer(customer),
      data: essayOrderBody('Parked, then edited back'),
    }),
  );
  await openSignedIn(page, support, '/staff/money');
  const unapplied = page.getByRole('list', { name: 'Unapplied payments' });
  await expect(unapplied.getByRole('link', { name: `Order #${toApply.id}` })).toBeVisible(SLOW);
  await expect(unapplied).toContainText('Fondy (card)');
  await axeBothWidths(page, 'money, unapplied');
  await shoot(page, 'backoffice-money');

  await unapplied.getByRole('button', { name: new RegExp(`^Apply: .+ for order #${toApply.id}$`) }).click();
  const apply = page.getByRole('dialog', { name: 'Apply this payment?' });
  await expectNoAxeViolations(page, 'apply dialog');
  await apply.getByRole('button', { name: 'Apply payment' }).click();
  await expect(page.getByText('Payment applied: the order is paid')).toBeVisible(SLOW);
  await expect(unapplied.getByRole('link', { name: `Order #${toApply.id}` })).toHaveCount(0, SLOW);

  await unapplied.getByRole('button', { name: new RegExp(`^Refund: .+ for order #${toRefund.id}$`) }).click();
  const refund = page.getByRole('dialog', { name: 'Refund this payment?' });
  await refund.getByLabel('Reason').fill('Paid the old price; the customer pays the new one separately');
  await axeBothWidths(page, 'refund dialog');
  await refund.getByRole('button', { name: 'Refund payment' }).click();
  await expect(page.getByText('Payment refunded')).toBeVisible(SLOW);
  await expect(unapplied.getByRole('link', { name: `Order #${toRefund.id}` })).toHaveCount(0, SLOW);

  // The customer's side: the first order is paid; the second still unpaid, with its refund in /transactions.
  const first = (await (await ok(await request.get(`/api/en/orders/${toApply.id}`, { headers: bearer(customer) }))).json()) as {
    status: number;
  };
  expect(first.status).toBe(2);
  const second = (await (await ok(await request.get(`/api/en/orders/${toRefund.id}`, { headers: bearer(customer) }))).json()) as {
    status: number;
  };
  expect(second.status).toBe(1);
  const list = (await (await ok(await request.get('/api/en/customers/transactions', { headers: bearer(customer) }))).json()) as {
    transactions: { orderId: number; type?: string; amount: number }[];
  };
  expect(list.transactions.filter((t) => t.orderId === toRefund.id).length).toBe(2);
});
