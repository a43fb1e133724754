import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
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
  test,
  type Tokens,
} from './support';

/**
 * Chat journeys (ADR 0047, 0049): the customer's messenger in one browser context, support in another (through the
 * staff API and the staff socket, as the staff console would), on the real server.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

let customer: Account;
let orderId: number;
let staff: Tokens;

interface StaffMessage {
  id: number;
  body: string;
  direction: { id: number };
  state: { id: number };
  files: { name: string }[];
}

/** Support sends a message to the order's support chat (CONTRACT "Staff side": direction 6 for a support token). */
const supportSends = async (request: APIRequestContext, body: string): Promise<StaffMessage> => {
  const response = await request.post(`/chat/api/staff/orders/${orderId}/messages`, {
    headers: { ...bearer(staff), 'Idempotency-Key': `e2e-${Date.now()}-${Math.random().toString(36).slice(2)}` },
    multipart: { direction: '6', message: JSON.stringify({ body }) },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as StaffMessage;
};

/** Every message of the order as support sees it, oldest first. */
const staffHistory = async (request: APIRequestContext): Promise<StaffMessage[]> => {
  const response = await request.get(`/chat/api/staff/orders/${orderId}/messages?limit=100`, { headers: bearer(staff) });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { messages: StaffMessage[] }).messages;
};

/** Support's own page with the staff socket open; frames it receives collect in `window.__frames`. */
const openSupport = async (context: BrowserContext): Promise<Page> => {
  const page = await context.newPage();
  await page.goto('/healthz');
  await page.evaluate(async (token) => {
    const w = window as unknown as { __frames: { event: number; data: unknown }[]; __socket: WebSocket };
    w.__frames = [];
    const socket = new WebSocket(
      `${location.origin.replace(/^http/, 'ws')}/chat/staff/orders/messages?accessToken=${encodeURIComponent(token)}`,
    );
    w.__socket = socket;
    socket.onmessage = (event) => w.__frames.push(JSON.parse(String(event.data)) as { event: number; data: unknown });
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = reject;
    });
  }, staff.accessToken);
  return page;
};

const staffFrames = (page: Page, event: number) =>
  page.evaluate(
    (n) =>
      (window as unknown as { __frames: { event: number; data: { orderId?: number } }[] }).__frames.filter((f) => f.event === n).length,
    event,
  );

const staffSocketSend = (page: Page, frame: unknown) =>
  page.evaluate((f) => (window as unknown as { __socket: WebSocket }).__socket.send(JSON.stringify(f)), frame);

/** A 160 × 120 PNG (blue and yellow squares), 374 bytes. */
const PNG_160x120 =
  'iVBORw0KGgoAAAANSUhEUgAAAKAAAAB4CAIAAAD6wG44AAABPUlEQVR42u3cMQ0AIAxFwZpAAsqwixMcMNUC6dCBXML+k3drQ9w9ym+uU352e3ZDaMBCAxYaMGDAdgHbBWwXMGChAQsNWGjAdgHbBWwXMGChAQsNWGjAgFuBxfp7FzBgoQELDRgwYLuA7QK2Cxiw0ICFBiw0YLuA7QK2Cxiw0ICFBiw0YMC9wGK5qhQasNCAAQO2C9guYLuAAQsNWGjAQgO2C9guYLuAAQsNWGjAQgMGDNiuf7Lsuqq0Cxiw0ICFBiw0YLuA7QK2Cxiw0ICFBiw0YLuA7QK2Cxiw0ICFBiy0f7Iguaq0C9guYLuAAQsNWGjAQgO2C9guYLuAAQsNWGjAQgMGDNguYLuAAQvtnyyxXFUKDRgwYLuA7QK2Cxiw0ICFBiw0YLuA7QK2Cxiw0ICFBiw0YMCA7QK2+/QSQK70NpwmnOMAAAAASUVORK5CYII=';

const chatLog = (page: Page, chat: 'writer' | 'support') =>
  page.getByRole('log', { name: chat === 'writer' ? 'Messages with your writer' : 'Messages with support' });
const composer = (page: Page, chat: 'writer' | 'support') =>
  page.getByLabel(chat === 'writer' ? 'Message to your writer' : 'Message to support');

test('support chat: live messages both ways, typing, unread badges clearing, read state', async ({ page, request, browser }) => {
  customer = await signUp(request, 'chat');
  orderId = (await placeOrder(request, customer.accessToken, 'An essay to talk about')).id;
  staff = await signInApi(request, 'support@example.com', 'support12345');
  // A paid order (the unpaid one opens the payment chooser on its page).
  // ADR 0071: paid only through money (a payment support records by hand).
  const paid = await request.post(`/api/staff/orders/${orderId}/payments`, {
    headers: bearer(staff),
    data: { reference: `E2E-CHAT-${orderId}` },
  });
  expect(paid.status(), await paid.text()).toBe(200);

  const supportContext = await browser.newContext({ bypassCSP: true });
  const supportPage = await openSupport(supportContext);

  // No writer yet: the support chat opens (SPEC §4 "Messages").
  await openSignedIn(page, customer, `/orderinfo/${orderId}/messages`);
  await expect(page.getByRole('tab', { name: /Support/, selected: true })).toBeVisible(SLOW);
  await expect(chatLog(page, 'support')).toBeVisible(SLOW);
  await expect(page.getByText('No messages yet. Write to support below.')).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'empty support chat');
  await shoot(page, 'chat-empty');

  // The customer's typing (11) reaches support; Enter sends, Shift+Enter breaks the line.
  const box = composer(page, 'support');
  await box.click();
  await box.pressSequentially('Hello support,');
  await expect.poll(() => staffFrames(supportPage, 11), SLOW).toBeGreaterThan(0);
  await box.press('Shift+Enter');
  await box.pressSequentially('when is my essay due?');
  await box.press('Enter');
  await expect(box).toHaveValue('');
  const own = chatLog(page, 'support').getByText('when is my essay due?');
  await expect(own).toBeVisible(SLOW);
  await expect(chatLog(page, 'support').getByText('Sent', { exact: true })).toBeVisible(SLOW);
  await expect.poll(() => staffFrames(supportPage, 1), SLOW).toBeGreaterThan(0);
  await expect.poll(() => staffFrames(supportPage, 12), SLOW).toBeGreaterThan(0);
  const history = await staffHistory(request);
  expect(history.map((m) => m.body)).toEqual(['Hello support,\nwhen is my essay due?']);

  // Support typing (13) shows, and goes with 14.
  await staffSocketSend(supportPage, { event: 13, data: { orderId } });
  await expect(page.getByText('Support is typing…')).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'support typing');
  await staffSocketSend(supportPage, { event: 14, data: { orderId } });
  await expect(page.getByText('Support is typing…')).toBeHidden(SLOW);

  // Support reads the customer's message: it shows "Read" live.
  const read = await request.put(`/chat/api/staff/orders/${orderId}/messages/read`, {
    headers: bearer(staff),
    data: { messages: String(history[0]!.id) },
  });
  expect(read.status(), await read.text()).toBe(200);
  await expect(chatLog(page, 'support').getByText('Read', { exact: true })).toBeVisible(SLOW);

  // Away from the messages: support's answer raises the tab's count, the navigation's and the card's, live.
  await page.getByRole('tab', { name: 'Order details' }).click();
  await supportSends(request, 'Tomorrow at noon. Anything else?');
  const messagesTab = page.getByRole('tab', { name: /Messages/ });
  await expect(messagesTab).toContainText('1', SLOW);
  await expect(messagesTab).toHaveAccessibleDescription('You have unread messages');
  await openNavigation(page);
  await expect(page.getByRole('link', { name: /All Orders.*1 unread message/ })).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'unread badge');
  await shoot(page, 'chat-unread-badge');

  // Seen in the open tab: read, and every badge clears.
  await messagesTab.click();
  await expect(chatLog(page, 'support').getByText('Tomorrow at noon. Anything else?')).toBeVisible(SLOW);
  await expect(page.getByRole('tab', { name: /Messages/ })).not.toContainText('1', SLOW);
  await expect(page.getByRole('link', { name: /unread message/ })).toHaveCount(0, SLOW);
  await expect.poll(async () => (await staffHistory(request)).find((m) => m.body.startsWith('Tomorrow'))?.state.id, SLOW).toBe(2);

  // A live message while looking at the chat.
  await supportSends(request, 'We are on it.');
  await expect(chatLog(page, 'support').getByText('We are on it.')).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'conversation');
  await shoot(page, 'chat-conversation');

  // The dashboard card shows an unread count, live, and it clears once read.
  await page.goto('/dashboard');
  await supportSends(request, 'One more thing for you.');
  const card = page.getByRole('article').filter({ hasText: `#${orderId}` });
  await expect(card.getByText('unread message', { exact: false })).toHaveCount(1, SLOW);
  await supportContext.close();
});

test('stickers, emoji, the 1500-character limit and an attachment with progress', async ({ page, request }) => {
  await openSignedIn(page, customer, `/orderinfo/${orderId}/messages?panel=support`);
  await expect(chatLog(page, 'support')).toBeVisible(SLOW);
  const box = composer(page, 'support');

  // The emoji picker by keyboard: it opens, an emoji goes into the text, Escape closes.
  await page.getByRole('button', { name: 'Insert an emoji' }).focus();
  await page.keyboard.press('Enter');
  const emojiGroup = page.getByRole('group', { name: 'Emoji' });
  await expect(emojiGroup.getByRole('button')).toHaveCount(39);
  await expectNoAxeViolations(page, 'emoji picker');
  await shoot(page, 'chat-emoji-picker');
  await emojiGroup.getByRole('button', { name: 'Insert 👍' }).click();
  await expect(box).toHaveValue('👍');

  // 1500 characters at most, with SPEC's message and a counter.
  await box.fill('x'.repeat(1501));
  await expect(page.getByText('Message cannot be more than 1500 characters long.')).toBeVisible();
  await expect(page.getByText('1501/1500')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
  await box.fill('');

  // A sticker goes at once.
  await page.getByRole('button', { name: 'Send a sticker' }).click();
  await expect(page.getByRole('group', { name: 'Stickers' }).getByRole('button')).toHaveCount(5);
  await page.getByRole('button', { name: 'Send sticker: Heart' }).click();
  await expect(chatLog(page, 'support').getByRole('img', { name: 'Sticker: Heart' })).toBeVisible(SLOW);

  // An attachment, with its type checked first.
  const fileInput = page.locator('input[type=file]');
  await fileInput.setInputFiles({ name: 'virus.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
  await expect(page.getByText(/virus\.exe: Invalid file format/)).toBeVisible();
  await fileInput.setInputFiles({
    name: 'notes.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n'),
  });
  await expect(page.getByRole('list', { name: 'Files to send' })).toContainText('notes.pdf');
  await box.fill('My notes attached');
  await box.press('Enter');
  await expect(chatLog(page, 'support').getByRole('button', { name: /notes\.pdf/ })).toBeVisible(SLOW);
  const history = await staffHistory(request);
  expect(history.at(-1)?.files.map((f) => f.name)).toEqual(['notes.pdf']);
  await expectNoAxeViolations(page, 'attachment sent');
  await shoot(page, 'chat-attachment');

  // ADR 0095: a picture is a thumbnail, loaded through the attachment's own download route, that opens large.
  await fileInput.setInputFiles({ name: 'chart.png', mimeType: 'image/png', buffer: Buffer.from(PNG_160x120, 'base64') });
  await expect(page.getByRole('list', { name: 'Files to send' })).toContainText('chart.png');
  await box.fill('The chart 👍');
  await box.press('Enter');
  const log = chatLog(page, 'support');
  const thumbnail = log.getByRole('button', { name: /^Open picture chart\.png, 374 b$/ });
  await expect(thumbnail).toBeVisible(SLOW);
  await expect(thumbnail.locator('img')).toHaveJSProperty('naturalWidth', 160, SLOW);
  await expect(thumbnail.locator('img')).toHaveAttribute('src', /\/chat\/api\/customers\/orders\/\d+\/messages\/files\/\d+\?ticket=/);
  // SPEC's emoji in the text are pictures (Twemoji) whose alt text is the emoji, and the text keeps the character.
  const thumbsUp = log.getByRole('img', { name: '👍' }).last();
  await expect(thumbsUp).toHaveAttribute('src', /\.svg$/);
  // decode() rejects a picture that did not load.
  expect(await thumbsUp.evaluate((img: HTMLImageElement) => img.decode().then(() => true))).toBe(true);
  // The text around it is the message's own; the picture sits in it, in the character's place.
  const text = log.getByText(/The chart/).last();
  await expect(text).toHaveText('The chart');
  await expect(text.getByRole('img', { name: '👍' })).toBeVisible();
  await expect(page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).resolves.toBe(true);
  await shoot(page, 'chat-picture-thumbnail');
  await thumbnail.click();
  const lightbox = page.getByRole('dialog', { name: 'chart.png' });
  await expect(lightbox).toBeVisible(SLOW);
  await expect(lightbox.getByRole('img', { name: 'chart.png' })).toHaveJSProperty('naturalWidth', 160, SLOW);
  await expect(lightbox.getByRole('button', { name: /Download/ })).toBeVisible();
  await expectNoAxeViolations(page, 'picture opened large');
  await shoot(page, 'chat-picture-large');
  await page.keyboard.press('Escape');
  await expect(lightbox).toBeHidden();
  await expect(thumbnail).toBeFocused();
});

test('offline: messages wait in the outbox and go once, in order, when back online; a closed tab keeps them', async ({
  page,
  context,
  request,
}) => {
  await openSignedIn(page, customer, `/orderinfo/${orderId}/messages?panel=support`);
  await expect(chatLog(page, 'support')).toBeVisible(SLOW);
  const before = (await staffHistory(request)).length;
  const box = composer(page, 'support');

  await context.setOffline(true);
  for (const text of ['Offline one', 'Offline two', 'Offline three']) {
    await box.fill(text);
    await box.press('Enter');
  }
  await expect(chatLog(page, 'support').getByText('Waiting for connection')).toHaveCount(3, SLOW);
  await expect(page.getByText(/Reconnecting…/)).toBeVisible(SLOW);
  await expectNoAxeViolations(page, 'offline with queued messages');
  await shoot(page, 'chat-offline');

  await context.setOffline(false);
  await expect(chatLog(page, 'support').getByText('Waiting for connection')).toHaveCount(0, SLOW);
  await expect
    .poll(async () => (await staffHistory(request)).slice(before).map((m) => m.body), SLOW)
    .toEqual(['Offline one', 'Offline two', 'Offline three']);

  // Written offline, then the tab is closed: the next visit sends it, once.
  await context.setOffline(true);
  await box.fill('Written before closing the tab');
  await box.press('Enter');
  await expect(chatLog(page, 'support').getByText('Waiting for connection')).toHaveCount(1, SLOW);
  await page.close();
  await context.setOffline(false);
  const again = await context.newPage();
  await again.goto(`/orderinfo/${orderId}/messages?panel=support`);
  await expect(chatLog(again, 'support').getByText('Written before closing the tab')).toBeVisible(SLOW);
  await expect
    .poll(async () => (await staffHistory(request)).filter((m) => m.body === 'Written before closing the tab').length, SLOW)
    .toBe(1);
  await again.waitForTimeout(1_000);
  expect((await staffHistory(request)).filter((m) => m.body === 'Written before closing the tab')).toHaveLength(1);
});

test('an answer lost on the way (a server restart in the middle of sending): the retry stores nothing twice', async ({ page, request }) => {
  await openSignedIn(page, customer, `/orderinfo/${orderId}/messages?panel=support`);
  await expect(chatLog(page, 'support')).toBeVisible(SLOW);
  // The first POST reaches the server and is stored, but its answer never comes back.
  let cut = 0;
  await page.route(`**/chat/api/customers/orders/${orderId}/messages`, async (route) => {
    if (route.request().method() !== 'POST' || cut > 0) return route.fallback();
    cut += 1;
    await route.fetch();
    await route.abort('connectionreset');
  });
  await composer(page, 'support').fill('Sent while the server went away');
  await composer(page, 'support').press('Enter');
  await expect(chatLog(page, 'support').getByText('Sent while the server went away')).toBeVisible(SLOW);
  await expect(chatLog(page, 'support').getByText('Waiting for connection')).toHaveCount(0, SLOW);
  await expect.poll(() => cut).toBe(1);
  await expect
    .poll(async () => (await staffHistory(request)).filter((m) => m.body === 'Sent while the server went away').length, SLOW)
    .toBe(1);
  await page.waitForTimeout(1_500);
  expect((await staffHistory(request)).filter((m) => m.body === 'Sent while the server went away')).toHaveLength(1);
  await expect(chatLog(page, 'support').getByText('Sent while the server went away')).toHaveCount(1);
});

test('with a writer assigned the writer chat opens, with the online dot live (event 8); ?panel=support opens support', async ({
  page,
  request,
  browser,
}) => {
  const writer = await signInApi(request, 'writer@example.com', 'writer12345');
  const me = (await (await request.get('/api/staff/me', { headers: bearer(writer) })).json()) as { id: number };
  const assign = await request.put(`/api/staff/orders/${orderId}/writer`, { headers: bearer(staff), data: { idWriter: me.id } });
  expect(assign.status(), await assign.text()).toBe(200);
  await openSignedIn(page, customer, `/orderinfo/${orderId}/messages`);
  await expect(page.getByRole('tab', { name: /Writer/, selected: true })).toBeVisible(SLOW);
  await expect(chatLog(page, 'writer')).toBeVisible(SLOW);
  await composer(page, 'writer').fill('Hello writer');
  await composer(page, 'writer').press('Enter');
  await expect(chatLog(page, 'writer').getByText('Hello writer')).toBeVisible(SLOW);
  // The writer answers through the staff API (direction 3).
  const answer = await request.post(`/chat/api/staff/orders/${orderId}/messages`, {
    headers: { ...bearer(writer), 'Idempotency-Key': `e2e-w-${Date.now()}` },
    multipart: { direction: '3', message: JSON.stringify({ body: 'Hi, I am your writer.' }) },
  });
  expect(answer.status(), await answer.text()).toBe(200);
  await expect(chatLog(page, 'writer').getByText('Hi, I am your writer.')).toBeVisible(SLOW);
  // ADR 0095: the writer's display name (the demo writer Jordan Blake) over their message, never the full name.
  await expect(chatLog(page, 'writer').getByText(/\bJordan B\./)).toBeVisible(SLOW);
  await expect(chatLog(page, 'writer')).not.toContainText('Blake');
  // The writer opens their staff socket: event 8 turns the dot online without waiting for the 60 s poll.
  const writerTab = page.getByRole('tab', { name: /Writer/ });
  await expect(writerTab).toContainText('offline', SLOW);
  const writerContext = await browser.newContext({ bypassCSP: true });
  const writerPage = await writerContext.newPage();
  await writerPage.goto('/healthz');
  await writerPage.evaluate(async (token) => {
    const socket = new WebSocket(
      `${location.origin.replace(/^http/, 'ws')}/chat/staff/orders/messages?accessToken=${encodeURIComponent(token)}`,
    );
    (window as unknown as { __socket: WebSocket }).__socket = socket;
    await new Promise((resolve, reject) => {
      socket.onopen = resolve;
      socket.onerror = reject;
    });
  }, writer.accessToken);
  await expect(writerTab).toContainText('online', SLOW);
  await expect(writerTab).not.toContainText('offline');
  await expectNoAxeViolations(page, 'writer chat');
  await shoot(page, 'chat-writer');
  await writerContext.close();
  await expect(writerTab).toContainText('offline', SLOW);
  await page.goto(`/orderinfo/${orderId}/messages?panel=support`);
  await expect(page.getByRole('tab', { name: /Support/, selected: true })).toBeVisible(SLOW);
});
