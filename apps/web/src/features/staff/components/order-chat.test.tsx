import { http, HttpResponse, ws } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChatMessage } from '@app/domain/chat';
import type { StaffOrderView } from '@app/domain/staff';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

const SUPPORT_ME = { id: 3, role: 6, firstName: 'Sam', lastName: 'Rivera', email: 'support@example.com' };
const ORDER: StaffOrderView = {
  id: 100,
  uid: 'uid-staff-00000100',
  title: 'Chat order',
  workType: { id: 1, name: 'Writing' },
  siteCategory: 1,
  status: 3,
  orderStatus: { id: 3, name: 'In progress' },
  deadline: '2026-12-01T10:00:00.000Z',
  dateCreated: '2026-11-20T10:00:00.000Z',
  finalPrice: 24.5,
  pending: false,
  pages: 2,
  idCustomer: 40,
  idWriter: 2,
  reviewBy: null,
  delivery: null,
  extensionRequest: null,
  events: [],
  customerName: 'Mia Customer',
  customerEmail: 'mia@example.com',
  writerName: null,
  pay: 9.8,
  writerDeadline: '2026-11-30T22:00:00.000Z',
  openRevision: false,
  otherOrders: [],
  brief: {
    siteCategory: 1,
    description: 'Explain the causes.',
    credentials: '',
    pages: 2,
    sources: 3,
    urgency: 240,
    paragraphSpacing: 2,
    subject: { id: 4, name: 'History' },
    assignment: { id: 1, name: 'Essay' },
    resumeService: null,
    paperFormat: { id: 1, name: 'APA' },
    academicLevel: { id: 2, name: 'College' },
    resumeLevel: null,
    thesisLevel: null,
    features: { premiumWriter: 1, extraQualityCheck: 1, onePageSummary: 1, originalityReport: 1 },
    preferredWritersList: [],
    preferredWriterAnother: false,
    deadline: '2026-12-01T10:00:00.000Z',
  },
  extensionAlert: null,
  // ADR 0071: the order view's fields the transition table reads, and its history.
  delivered: false,
  amountDue: 0,
  chargeDue: null,
  statusHistory: [],
};

const message = (id: number, direction: 1 | 2 | 3 | 6, body: string, change: Partial<ChatMessage> = {}): ChatMessage => ({
  id,
  orderId: 100,
  sequence: id,
  direction: { id: direction },
  state: { id: 1 },
  body,
  sticker: null,
  emoji: null,
  files: [],
  dateCreated: new Date(Date.UTC(2026, 10, 20, 10, id)).toISOString(),
  clientId: null,
  ...change,
});

const socketLink = ws.link('ws://localhost:3000/chat/staff/orders/messages');

/** The staff API, the chat routes and the staff socket; records what the console sends. */
const serveChat = (history: ChatMessage[], me: typeof SUPPORT_ME = SUPPORT_ME) => {
  const state = {
    gets: [] as URLSearchParams[],
    reads: [] as string[],
    posts: [] as { key: string | null; direction: string | null; message: string | null }[],
    frames: [] as { event: number; data?: { orderId: number; chat?: string } }[],
    failNext: false,
    send: (_frame: unknown) => undefined as void,
  };
  let nextId = 500;
  server.use(
    http.get('/api/en/customers/customer', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
    http.get('/api/staff/me', () => HttpResponse.json(me)),
    http.get('/api/staff/orders/100', () => HttpResponse.json(ORDER)),
    http.get('*/chat/api/staff/orders/100/messages', ({ request }) => {
      const params = new URL(request.url).searchParams;
      state.gets.push(params);
      const before = params.get('before');
      const after = params.get('after');
      const limit = Number(params.get('limit'));
      let list = history;
      if (before !== null) list = history.filter((m) => m.id < Number(before));
      if (after !== null) return HttpResponse.json({ messages: history.filter((m) => m.id > Number(after)).slice(0, limit) });
      return HttpResponse.json({ messages: list.slice(-limit) });
    }),
    http.put('*/chat/api/staff/orders/100/messages/read', async ({ request }) => {
      const body = (await request.json()) as { messages: string };
      state.reads.push(body.messages);
      return HttpResponse.json({ messages: body.messages.split(',').map(Number), unread: { total: 0, writer: 0, support: 0 } });
    }),
    http.post('*/chat/api/staff/orders/100/messages', async ({ request }) => {
      const form = await request.formData();
      const key = request.headers.get('Idempotency-Key');
      state.posts.push({ key, direction: form.get('direction') as string | null, message: form.get('message') as string | null });
      if (state.failNext) {
        state.failNext = false;
        return HttpResponse.json({ message: 'You are sending messages too fast. Please wait a moment and try again.' }, { status: 429 });
      }
      const { body } = JSON.parse(String(form.get('message'))) as { body: string };
      nextId += 1;
      // The server takes the direction from the token: 3 for a writer, 6 for support.
      return HttpResponse.json(message(nextId, me.role === 3 ? 3 : 6, body, { clientId: key }));
    }),
    socketLink.addEventListener('connection', ({ client }) => {
      state.send = (frame) => client.send(JSON.stringify(frame));
      client.addEventListener('message', (event) => state.frames.push(JSON.parse(String(event.data)) as (typeof state.frames)[number]));
    }),
  );
  return state;
};

const openChat = async () => {
  signIn();
  const app = renderApp('/staff/orders/100');
  const log = await screen.findByRole('log', { name: 'Support chat' }, { timeout: 10_000 });
  return { ...app, log };
};

afterEach(() => window.localStorage.clear());

describe('order chat (staff)', { timeout: 30_000 }, () => {
  it('shows the history, marks the customer’s messages read, and takes live messages, typing and read state from the socket', async () => {
    const chat = serveChat([message(1, 2, 'Hello support'), message(2, 6, 'Hello, how can I help?'), message(3, 1, 'To the writer')]);
    const { log, user } = await openChat();
    expect(await within(log).findByText('Hello support')).toBeInTheDocument();
    expect(within(log).getByText('Hello, how can I help?')).toBeInTheDocument();
    // The writer chat's message is in the other tab; its unread count is the writer's business, not support's.
    expect(within(log).queryByText('To the writer')).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: /Writer chat/ })).not.toHaveTextContent('unread');
    // Seen: the customer's support message is marked read in one call; the writer chat's is not (not on screen).
    await waitFor(() => expect(chat.reads).toEqual(['1']));
    expect(within(log).getByText('Sent')).toBeInTheDocument();

    await waitFor(() => expect(screen.queryByText('Connecting to live updates…')).not.toBeInTheDocument());
    act(() => chat.send({ event: 1, data: { message: message(4, 2, 'Are you there?') } }));
    expect(await within(log).findByText('Are you there?')).toBeInTheDocument();
    await waitFor(() => expect(chat.reads).toEqual(['1', '4']));
    // The same message again (a reconnect's catch-up racing the socket) is shown once.
    act(() => chat.send({ event: 1, data: { message: message(4, 2, 'Are you there?') } }));
    await waitFor(() => expect(within(log).getAllByText('Are you there?')).toHaveLength(1));
    // Another order's message does not land here.
    act(() => chat.send({ event: 1, data: { message: { ...message(5, 2, 'Other order'), orderId: 999 } } }));

    act(() => chat.send({ event: 11, data: { orderId: 100, chat: 'support' } }));
    expect(await screen.findByText('The customer is typing…')).toBeInTheDocument();
    act(() => chat.send({ event: 12, data: { orderId: 100, chat: 'support' } }));
    await waitFor(() => expect(screen.queryByText('The customer is typing…')).not.toBeInTheDocument());

    act(() => chat.send({ event: 6, data: { orderId: 100, chat: 'support', by: 'customer', messageId: 2, sequence: 2 } }));
    expect(await within(log).findByText('Read')).toBeInTheDocument();
    expect(screen.queryByText('Other order')).not.toBeInTheDocument();

    // Support reads the writer chat without replying or marking it read.
    await user.click(screen.getByRole('tab', { name: /Writer chat/ }));
    const writerLog = await screen.findByRole('log', { name: 'Writer chat' });
    expect(within(writerLog).getByText('To the writer')).toBeInTheDocument();
    expect(screen.getByText('The writer’s conversation with the customer. Only the writer replies here.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Message to the customer')).not.toBeInTheDocument();
    expect(chat.reads).toEqual(['1', '4']);
  });

  it('sends with typing 13 then 14 and a client id; a refused send keeps the text and Retry sends it with the same id', async () => {
    const chat = serveChat([message(1, 2, 'Hello support')]);
    const { log, user } = await openChat();
    await waitFor(() => expect(screen.queryByText('Connecting to live updates…')).not.toBeInTheDocument());
    const box = screen.getByLabelText('Message to the customer');

    // Empty: the domain's message, nothing sent.
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Please type a message or attach a file')).toBeInTheDocument();

    chat.failNext = true;
    await user.type(box, 'We are on it');
    await waitFor(() => expect(chat.frames.filter((f) => f.event === 13)).toHaveLength(1));
    expect(chat.frames.find((f) => f.event === 13)?.data).toEqual({ orderId: 100, chat: 'support' });
    await user.keyboard('{Enter}');
    await waitFor(() => expect(chat.frames.some((f) => f.event === 14)).toBe(true));
    expect(await within(log).findByText(/Failed: You are sending messages too fast/)).toBeInTheDocument();
    expect(chat.posts).toHaveLength(1);
    expect(chat.posts[0]).toMatchObject({ direction: '6', message: '{"body":"We are on it"}' });
    const key = chat.posts[0]?.key;
    expect(key).toMatch(/^[A-Za-z0-9_:.-]{1,64}$/);

    await user.click(within(log).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(within(log).getByText('We are on it')).toBeInTheDocument());
    await waitFor(() => expect(within(log).queryByText(/Failed/)).not.toBeInTheDocument());
    expect(chat.posts.map((p) => p.key)).toEqual([key, key]);
    expect(within(log).getAllByText('We are on it')).toHaveLength(1);

    // Shift+Enter breaks the line and sends nothing; the counter follows the text.
    await user.type(box, 'a{Shift>}{Enter}{/Shift}b');
    expect(box).toHaveValue('a\nb');
    expect(chat.posts).toHaveLength(2);
    fireEvent.change(box, { target: { value: 'x'.repeat(1501) } });
    expect(screen.getByText('1501 / 1500')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Message cannot be more than 1500 characters long.')).toBeInTheDocument();
    expect(chat.posts).toHaveLength(2);
    // ADR 0068: characters are code points, as the server counts them: 1,501 emoji are refused, 1,500 sent.
    fireEvent.change(box, { target: { value: '👍'.repeat(1501) } });
    expect(screen.getByText('1501 / 1500')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(chat.posts).toHaveLength(2);
    fireEvent.change(box, { target: { value: '👍'.repeat(1500) } });
    expect(screen.getByText('1500 / 1500')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(chat.posts).toHaveLength(3));
    expect(chat.posts[2]).toMatchObject({ message: JSON.stringify({ body: '👍'.repeat(1500) }) });
  });

  it('loads older pages on demand and keeps each message once', async () => {
    const history = Array.from({ length: 60 }, (_, i) => message(i + 1, i % 2 === 0 ? 2 : 6, `Message number ${i + 1}`));
    const chat = serveChat(history);
    const { log, user } = await openChat();
    expect(await within(log).findByText('Message number 60')).toBeInTheDocument();
    expect(within(log).queryByText('Message number 10')).not.toBeInTheDocument();
    await user.click(within(log).getByRole('button', { name: 'Load older messages' }));
    expect(await within(log).findByText('Message number 10')).toBeInTheDocument();
    expect(chat.gets.some((p) => p.get('before') === '11')).toBe(true);
    expect(within(log).getAllByRole('listitem')).toHaveLength(60);
    await waitFor(() => expect(within(log).queryByRole('button', { name: 'Load older messages' })).not.toBeInTheDocument());
  });

  it('gives a writer the writer chat alone, to read and to answer', async () => {
    const chat = serveChat([message(1, 1, 'Hi writer'), message(2, 2, 'Hi support')], {
      id: 2,
      role: 3,
      firstName: 'Wes',
      lastName: 'Writer',
      email: 'writer@example.com',
    });
    signIn();
    const { user } = renderApp('/staff/orders/100');
    const log = await screen.findByRole('log', { name: 'Writer chat' }, { timeout: 10_000 });
    expect(await within(log).findByText('Hi writer')).toBeInTheDocument();
    expect(screen.queryByText('Hi support')).not.toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    await waitFor(() => expect(chat.reads).toEqual(['1']));
    await waitFor(() => expect(screen.queryByText('Connecting to live updates…')).not.toBeInTheDocument());
    await user.type(screen.getByLabelText('Message to the customer'), 'Draft tomorrow{Enter}');
    expect(await within(log).findByText('Draft tomorrow')).toBeInTheDocument();
    expect(chat.posts[0]).toMatchObject({ direction: '3', message: '{"body":"Draft tomorrow"}' });
    await waitFor(() => expect(chat.frames.find((f) => f.event === 13)?.data).toEqual({ orderId: 100, chat: 'writer' }));
  });
});
