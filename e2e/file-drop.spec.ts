import type { Locator, Page } from '@playwright/test';
import {
  bearer,
  completePaperStep,
  expect,
  expectNoAxeViolations,
  openSignedIn,
  placeOrder,
  shoot,
  signUp,
  SLOW,
  tabTo,
  test,
  WIZARD_WAIT,
} from './support';

/** ADR 0096: files dropped in the wizard and on the Files tab (one drop zone), and an own upload removed. */
test.setTimeout(180_000);

const PDF = '%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n';

/** Drags `files` over `target` and drops them, as a browser does with files from the desktop. */
const dropFiles = async (target: Locator, files: { name: string; type: string; content: string }[], { drop = true } = {}) => {
  const dataTransfer = await target.page().evaluateHandle((list) => {
    const transfer = new DataTransfer();
    for (const f of list) transfer.items.add(new File([f.content], f.name, { type: f.type }));
    return transfer;
  }, files);
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  if (drop) await target.dispatchEvent('drop', { dataTransfer });
};

/** Nothing widens a 390 px page (common brief). */
const expectNarrowFits = async (page: Page) => {
  const viewport = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.scrollingElement?.scrollWidth ?? 0)).toBeLessThanOrEqual(390);
  if (viewport) await page.setViewportSize(viewport);
};

test('the wizard takes dropped files by SPEC rules, and the Browse button stays the keyboard way in', async ({ page, request }) => {
  const account = await signUp(request, 'drop-wizard');
  await openSignedIn(page, account, '/order');
  await expect(page.getByLabel('Subject')).toBeVisible(WIZARD_WAIT);
  await expect(page.locator('#root')).not.toHaveAttribute('inert', WIZARD_WAIT);
  await completePaperStep(page);

  const zone = page.getByRole('group', { name: 'Drag and drop files here, or' });
  await expect(zone).toHaveAccessibleDescription('Up to 100MB each', WIZARD_WAIT);
  await dropFiles(zone, [{ name: 'brief.pdf', type: 'application/pdf', content: PDF }], { drop: false });
  await expect(page.getByText('Drop the files to add them')).toBeVisible();
  await shoot(page, 'dropzone-wizard-dragging');
  await dropFiles(zone, [
    { name: 'brief.pdf', type: 'application/pdf', content: PDF },
    { name: 'setup.exe', type: 'application/octet-stream', content: 'MZ' },
  ]);
  const attached = page.getByRole('list', { name: 'Attached files' });
  await expect(attached.getByText('brief.pdf')).toBeVisible();
  await expect(attached.getByText('setup.exe')).toHaveCount(0);
  await expect(page.getByText(/setup\.exe: Invalid file format\. Acceptable file formats: txt, zip/)).toBeVisible();
  await expect(page.getByTestId('live-region')).toHaveText('1 file added');
  const browse = page.getByRole('button', { name: 'Attach files' });
  await expect(browse).toHaveAccessibleDescription(/setup\.exe: Invalid file format/);
  await tabTo(page, browse);
  await expect(browse).toBeFocused();
  await expectNoAxeViolations(page, 'wizard with a dropped file and a refused one');
  await shoot(page, 'dropzone-wizard');
  await expectNarrowFits(page);

  // The file dialog's path (the Browse button's input) adds to the same list.
  await page.getByLabel('Attach files').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('notes') });
  await expect(attached.getByText('notes.txt')).toBeVisible();
  await attached.getByRole('button', { name: 'Remove brief.pdf' }).click();
  await expect(attached.getByText('brief.pdf')).toHaveCount(0);
});

test('the Files tab uploads a dropped file with its progress, and the customer removes their own wrong upload', async ({
  page,
  request,
}) => {
  const account = await signUp(request, 'drop-files');
  const order = await placeOrder(request, account.accessToken, 'Files dropped on the order');
  await openSignedIn(page, account, `/orderinfo/${order.id}/files`);
  const own = page.getByRole('region', { name: 'Your files' });
  // The first load of the order page's lazy chunks is slow on a busy machine.
  await expect(own.getByText('You have not added any files.')).toBeVisible({ timeout: 60_000 });

  const zone = page.getByRole('group', { name: 'Drag and drop files here, or' });
  await dropFiles(zone, [
    { name: 'wrong-brief.pdf', type: 'application/pdf', content: PDF },
    { name: 'tool.exe', type: 'application/octet-stream', content: 'MZ' },
  ]);
  await expect(own.getByText('wrong-brief.pdf', { exact: true })).toBeVisible(SLOW);
  await expect(page.getByRole('list', { name: 'Uploads' })).toContainText('tool.exe');
  await expect(page.getByRole('list', { name: 'Uploads' })).toContainText('Invalid file format. Acceptable file formats:');
  await page.getByLabel('Add files').setInputFiles({ name: 'right-brief.pdf', mimeType: 'application/pdf', buffer: Buffer.from(PDF) });
  await expect(own.getByText('right-brief.pdf', { exact: true })).toBeVisible(SLOW);
  // A long name keeps its own line on a phone (it broke letter by letter beside the buttons).
  const longName = 'Literature_review_chapter_two_with_all_the_sources_final_version.pdf';
  await page.getByLabel('Add files').setInputFiles({ name: longName, mimeType: 'application/pdf', buffer: Buffer.from(PDF) });
  await expect(own.getByText(longName, { exact: true })).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'files tab with uploads');
  await shoot(page, 'dropzone-files-tab');
  await expectNarrowFits(page);

  // Remove, with a confirmation; keeping it first changes nothing.
  await own.getByRole('button', { name: 'Remove wrong-brief.pdf' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this file?' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'remove confirmation');
  await shoot(page, 'dropzone-remove-confirm');
  await dialog.getByRole('button', { name: 'Keep the file' }).click();
  await expect(dialog).toBeHidden();
  await expect(own.getByText('wrong-brief.pdf', { exact: true })).toBeVisible();
  await own.getByRole('button', { name: 'Remove wrong-brief.pdf' }).click();
  await dialog.getByRole('button', { name: 'Remove' }).click();
  await expect(dialog).toBeHidden(SLOW);
  await expect(own.getByText('wrong-brief.pdf', { exact: true })).toHaveCount(0);
  await expect(own.getByText('right-brief.pdf', { exact: true })).toBeVisible();
  const left = await request.get(`/api/en/orders/${order.id}/customers/files`, { headers: bearer(account) });
  expect(((await left.json()) as { name: string }[]).map((f) => f.name).sort()).toEqual([
    'Literature_review_chapter_two_with_all_the_sources_final_version.pdf',
    'right-brief.pdf',
  ]);

  // Another customer cannot remove what is left (CONTRACT: 404).
  const other = await signUp(request, 'drop-peeker');
  const [remaining] = (await left.json()) as { id: number }[];
  expect((await request.delete(`/api/en/orders/files/${remaining?.id}`, { headers: bearer(other) })).status()).toBe(404);
});
