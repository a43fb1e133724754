import { randomBytes } from 'node:crypto';
import type { APIRequestContext, Page } from '@playwright/test';
import {
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
} from './support';

/**
 * Issue 24 (ADR 0087): cancel and disputes, with the money shown. A cancel before work: the order page says
 * what comes back and where, the cancel is immediate, and its refund and credit note are on /transactions.
 * A dispute once a writer works on the order: opened with a reason, a description and a file, resolved by
 * support in the console with a partial refund, which the customer then reads on the order and on /transactions.
 */

test.describe.configure({ timeout: 150_000 });

/** Pays an order through the Fondy sandbox as the browser would (the redirect, then the sandbox's Pay). */
const payInSandbox = async (request: APIRequestContext, uid: string): Promise<void> => {
  const checkout = await request.get(`/checkout/fondy/order/${uid}?hashDevice=e2e-${randomBytes(4).toString('hex')}`, { maxRedirects: 0 });
  expect(checkout.status()).toBe(302);
  const sandbox = new URL(String(checkout.headers().location), 'http://x').pathname;
  const paid = await request.post(`${sandbox}/pay`, { maxRedirects: 0 });
  expect(paid.status()).toBe(303);
};

const price = async (request: APIRequestContext, tokens: Tokens, orderId: number): Promise<string> => {
  const quote = await request.get(`/api/en/orders/${orderId}/cancellation`, { headers: bearer(tokens) });
  expect(quote.status()).toBe(200);
  return `$${((await quote.json()) as { refund: number }).refund.toFixed(2)}`;
};

const creditNoteOnTransactions = async (page: Page, title: string): Promise<void> => {
  await page.goto('/transactions');
  const rows = page.getByRole('row').or(page.getByRole('listitem')).filter({ hasText: title });
  await expect(rows.getByRole('button', { name: /^Download credit note \S+ \(PDF\)$/ }).first()).toBeVisible(SLOW);
  await expect(rows.getByRole('button', { name: /^Download receipt \S+ \(PDF\)$/ }).first()).toBeVisible();
};

test('cancel before work: the refund shown, the order canceled at once, the refund and credit note on /transactions', async ({ page }) => {
  const account = await signUp(page.request, 'cancel');
  const title = `Cancel me ${Date.now()}`;
  const order = await placeOrder(page.request, account.accessToken, title);
  await payInSandbox(page.request, order.uid);
  const refund = await price(page.request, account, order.id);

  await openSignedIn(page, account, `/orderinfo/${order.id}/details`);
  const panel = page.getByRole('region', { name: 'Cancel or dispute' });
  await expect(panel).toBeVisible(SLOW);
  await expect(panel.getByTestId('cancel-quote')).toContainText(
    `No writer has started yet: a cancel now gives back everything you paid, ${refund}.`,
  );
  await expect(panel.getByTestId('cancel-quote')).toContainText('The money goes back to Fondy');
  await expectNoAxeViolations(page, 'cancel quote before work');
  await shoot(page, 'cancel-quote-before-work');

  await panel.getByRole('button', { name: 'Cancel order' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel the order' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Why are you canceling? (optional)').fill('I found the sources myself');
  await expectNoAxeViolations(page, 'cancel dialog');
  await shoot(page, 'cancel-dialog');
  await dialog.getByRole('button', { name: `Cancel and refund ${refund}` }).click();
  await expect(page.getByText(`The order is canceled. ${refund} is on its way back.`)).toBeVisible(SLOW);
  await expect(panel).toBeHidden(SLOW);
  const detail = await page.request.get(`/api/en/orders/${order.id}`, { headers: bearer(account) });
  expect(((await detail.json()) as { status: number }).status).toBe(8);
  // Cancelling again is refused, and writes nothing more.
  const again = await page.request.post(`/api/en/orders/${order.id}/cancellation`, { headers: bearer(account), data: { reason: 'again' } });
  expect(again.status()).toBe(409);

  await creditNoteOnTransactions(page, title);
  await expectNoAxeViolations(page, 'transactions with a credit note');
  await shoot(page, 'cancel-transactions');
});

test('a dispute opened with a file and resolved by support with a partial refund', async ({ page }) => {
  const account = await signUp(page.request, 'dispute');
  const title = `Dispute me ${Date.now()}`;
  const order = await placeOrder(page.request, account.accessToken, title);
  await payInSandbox(page.request, order.uid);
  const support = await signInApi(page.request, SUPPORT.email, SUPPORT.password);
  const writer = await signInApi(page.request, WRITER.email, WRITER.password);
  const writerId = ((await (await page.request.get('/api/staff/me', { headers: bearer(writer) })).json()) as { id: number }).id;
  const assigned = await page.request.put(`/api/staff/orders/${order.id}/writer`, {
    headers: bearer(support),
    data: { idWriter: writerId },
  });
  expect(assigned.status()).toBe(200);

  await openSignedIn(page, account, `/orderinfo/${order.id}/details`);
  const panel = page.getByRole('region', { name: 'Cancel or dispute' });
  await expect(panel.getByTestId('cancel-quote')).toContainText(
    'A writer is working on this order: a cancel now can give back 50% of what you paid',
    SLOW,
  );
  await panel.getByRole('button', { name: 'Open a dispute' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open a dispute' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Send to support' }).click();
  await expect(dialog.getByText('Describe what went wrong.')).toBeVisible();
  await dialog.getByLabel('Reason').selectOption('instructions');
  await dialog.getByLabel('What went wrong?').fill('The outline ignores the three sources I attached.');
  await dialog.getByLabel('Files (optional, up to 5)').setInputFiles({
    name: 'my-sources.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(256, 0x41), Buffer.from('\n%%EOF\n')]),
  });
  await expectNoAxeViolations(page, 'dispute form');
  await shoot(page, 'dispute-form');
  await dialog.getByRole('button', { name: 'Send to support' }).click();
  await expect(dialog).toBeHidden(SLOW);
  const disputes = page.getByRole('list', { name: 'Disputes' });
  await expect(disputes).toContainText('My instructions were not followed', SLOW);
  await expect(disputes).toContainText('Open. Support answers by');
  await expect(disputes).toContainText('Files: my-sources.pdf');
  await expectNoAxeViolations(page, 'dispute open');
  await shoot(page, 'dispute-open');

  const list = await page.request.get(`/api/en/orders/${order.id}/disputes`, { headers: bearer(account) });
  const disputeId = ((await list.json()) as { disputes: { id: number }[] }).disputes[0]?.id ?? 0;

  // Support resolves it in the console with a partial refund.
  await openSignedIn(page, support, '/staff/money');
  const queue = page.getByRole('region', { name: /^Disputes/ });
  await expect(queue.getByRole('button', { name: `Resolve dispute #${disputeId}` })).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'staff disputes queue');
  await shoot(page, 'staff-disputes');
  await queue.getByRole('button', { name: `Resolve dispute #${disputeId}` }).click();
  const resolve = page.getByRole('dialog', { name: `Resolve dispute #${disputeId}` });
  await expect(resolve).toBeVisible();
  await resolve.getByLabel('Outcome').selectOption('partial_refund');
  await resolve.getByLabel('Amount to refund (USD)').fill('5.00');
  await resolve.getByLabel('Message to the customer').fill('Part of the work missed your sources: we refund $5.00.');
  await expectNoAxeViolations(page, 'resolve dialog');
  await shoot(page, 'staff-resolve-dispute');
  await resolve.getByRole('button', { name: 'Resolve' }).click();
  await expect(resolve).toBeHidden(SLOW);
  await expect(queue.getByRole('button', { name: `Resolve dispute #${disputeId}` })).toHaveCount(0, SLOW);
  // Resolving twice is refused.
  const twice = await page.request.put(`/api/staff/disputes/${disputeId}`, {
    headers: bearer(support),
    data: { outcome: 'partial_refund', amount: 5, message: 'again' },
  });
  expect(twice.status()).toBe(409);

  // The customer reads the outcome on the order, and the refund with its credit note on /transactions.
  await openSignedIn(page, account, `/orderinfo/${order.id}/details`);
  const after = page.getByRole('list', { name: 'Disputes' });
  await expect(after).toContainText('Resolved: Partial refund, $5.00 refunded', SLOW);
  await expect(after).toContainText('Support: Part of the work missed your sources: we refund $5.00.');
  await expectNoAxeViolations(page, 'dispute resolved');
  await shoot(page, 'dispute-resolved');
  await creditNoteOnTransactions(page, title);
});
