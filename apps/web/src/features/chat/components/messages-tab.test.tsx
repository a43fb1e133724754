import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { server } from '@/testing/msw-server';
import { CHAT_HTTP, chatSocket } from '@/testing/msw-handlers';
import { orderDetailFixture, signIn } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { chatSessionStore } from '@/lib/chat/current';

/** ADR 0049: the Messages tab against MSW (HTTP and the socket). */
const ORDER = 42;
const at = (minutes: number) => new Date(Date.UTC(2030, 0, 5, 9, minutes)).toISOString();
const message = (id: number, direction: number, body: string, patch: Record<string, unknown> = {}) => ({
  id,
  orderId: ORDER,
  sequence: id,
  direction: { id: direction },
  state: { id: 1 },
  body,
  sticker: null,
  emoji: null,
  files: [],
  dateCreated: at(id),
  clientId: null,
  ...patch,
});

// happy-dom has no IntersectionObserver: this one reports every observed element as in view at once,
// as a browser does for messages on screen (the e2e journeys check the real one).
class SeeAllObserver {
  constructor(private readonly callback: IntersectionObserverCallback) {}
  observe(target: Element) {
    queueMicrotask(() =>
      this.callback([{ target, isIntersecting: true } as IntersectionObserverEntry], this as unknown as IntersectionObserver),
    );
  }
  unobserve() {}
  disconnect() {}
}

const serve = ({
  idWriter = null as number | null,
  history = [] as ReturnType<typeof message>[],
  unread = { total: 0, writer: 0, support: 0 },
} = {}) => {
  const calls = { read: [] as string[], posts: [] as { key: string | null; message: string; direction: string }[], pages: [] as string[] };
  server.use(
    http.get(`/api/en/orders/${ORDER}`, () =>
      HttpResponse.json(orderDetailFixture({ id: ORDER, status: 2, orderStatus: { id: 2, name: 'Paid' }, idWriter })),
    ),
    http.get(`${CHAT_HTTP}/api/customers/orders/${ORDER}/messages/unread`, () => HttpResponse.json(unread)),
    http.get(`${CHAT_HTTP}/api/customers/orders/${ORDER}/messages`, ({ request }) => {
      const url = new URL(request.url);
      calls.pages.push(url.search);
      const before = Number(url.searchParams.get('before') ?? Infinity);
      const after = Number(url.searchParams.get('after') ?? -1);
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const matching = history.filter((m) => m.id < before && m.id > after);
      return HttpResponse.json({ messages: url.searchParams.has('after') ? matching.slice(0, limit) : matching.slice(-limit) });
    }),
    http.put(`${CHAT_HTTP}/api/customers/orders/${ORDER}/messages/read`, async ({ request }) => {
      const body = (await request.json()) as { messages: string };
      calls.read.push(body.messages);
      return HttpResponse.json({ messages: body.messages.split(',').map(Number), unread: { total: 0, writer: 0, support: 0 } });
    }),
  );
  return calls;
};

beforeEach(() => {
  vi.stubGlobal('IntersectionObserver', SeeAllObserver);
});
afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const open = async (search = '') => {
  signIn();
  const app = renderApp(`/orderinfo/${ORDER}/messages${search}`);
  return app;
};

describe('Messages tab', { timeout: 30_000 }, () => {
  it('opens the support chat when no writer is assigned, shows the history oldest first and marks seen messages read in one call', async () => {
    const calls = serve({
      history: [message(1, 2, 'Hello, when is it due?', { state: { id: 2 } }), message(2, 6, 'Tomorrow.'), message(3, 6, 'At noon.')],
      unread: { total: 2, writer: 0, support: 2 },
    });
    await open();
    const log = await screen.findByRole('log', { name: 'Messages with support' }, { timeout: 10_000 });
    expect(screen.getByRole('tab', { name: /Support/, selected: true })).toBeInTheDocument();
    await within(log).findByText('At noon.');
    const texts = within(log)
      .getAllByText(/Hello|Tomorrow|At noon/)
      .map((el) => el.textContent);
    expect(texts).toEqual(['Hello, when is it due?', 'Tomorrow.', 'At noon.']);
    expect(within(log).getByText('Read')).toBeInTheDocument();
    await waitFor(() => expect(calls.read).toEqual(['2,3']));
  });

  it('stays mounted behind another tab: back on Messages, the draft is there and the history is not read again', async () => {
    const calls = serve({ history: [message(1, 6, 'Welcome!')] });
    const { user } = await open();
    const box = await screen.findByLabelText('Message to support', {}, { timeout: 10_000 });
    await screen.findByText('Welcome!');
    await user.type(box, 'half a thought');
    // The panels of the tabs not open are out of the page (only kept ones stay, hidden).
    expect(screen.queryByRole('tabpanel', { name: 'Files' })).not.toBeInTheDocument();
    expect(screen.queryByRole('tabpanel', { name: 'Order details' })).not.toBeInTheDocument();
    const reads = calls.pages.length;
    await user.click(screen.getByRole('tab', { name: 'Order details' }));
    expect(await screen.findByRole('tab', { name: 'Order details', selected: true })).toBeInTheDocument();
    // Hidden, not shown: the messenger is out of view and out of the accessibility tree.
    expect(screen.queryByRole('log', { name: 'Messages with support' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: /Messages/ }));
    expect(await screen.findByRole('log', { name: 'Messages with support' })).toBeInTheDocument();
    expect(screen.getByLabelText('Message to support')).toBe(box);
    expect(box).toHaveValue('half a thought');
    expect(calls.pages.length).toBe(reads);
  });

  it('attaches a file dropped on the conversation, not only on the composer (issue 27)', async () => {
    serve({ history: [message(1, 6, 'Send me the draft.')] });
    await open();
    const log = await screen.findByRole('log', { name: 'Messages with support' }, { timeout: 10_000 });
    await within(log).findByText('Send me the draft.');
    const file = new File(['%PDF-1.7'], 'draft.pdf', { type: 'application/pdf' });
    const transfer = {
      dataTransfer: { files: [file], items: [{ kind: 'file', type: file.type, getAsFile: () => file }], types: ['Files'] },
    };
    fireEvent.dragEnter(log, transfer);
    expect(await screen.findByText('Drop files to attach them')).toBeInTheDocument();
    fireEvent.drop(log, transfer);
    expect(within(await screen.findByRole('list', { name: 'Files to send' })).getByText('draft.pdf')).toBeInTheDocument();
  });

  it('opens the writer chat by default when a writer is assigned, and support with ?panel=support', async () => {
    serve({ idWriter: 12 });
    const first = await open();
    expect(await screen.findByRole('tab', { name: /Writer/, selected: true }, { timeout: 10_000 })).toBeInTheDocument();
    first.unmount();
    serve({ idWriter: 12 });
    await open('?panel=support');
    expect(await screen.findByRole('tab', { name: /Support/, selected: true }, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('opens support when only support has unread messages', async () => {
    serve({ idWriter: 12, unread: { total: 1, writer: 0, support: 1 } });
    await open();
    expect(await screen.findByRole('tab', { name: /Support/, selected: true }, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('shows a live message from the socket once, and support typing until the stop frame', async () => {
    serve({ history: [message(1, 6, 'Welcome!')] });
    server.use(
      chatSocket.addEventListener('connection', ({ client }) => {
        setTimeout(() => client.send(JSON.stringify({ event: 13, data: { orderId: ORDER } })), 300);
        setTimeout(() => client.send(JSON.stringify({ event: 14, data: { orderId: ORDER } })), 1_500);
        setTimeout(() => {
          // The same frame twice (a re-delivery): shown once.
          client.send(JSON.stringify({ event: 1, data: { message: message(2, 6, 'Live from support') } }));
          client.send(JSON.stringify({ event: 1, data: { message: message(2, 6, 'Live from support') } }));
        }, 1_800);
      }),
    );
    await open();
    const log = await screen.findByRole('log', { name: 'Messages with support' }, { timeout: 10_000 });
    expect(await screen.findByText('Support is typing…', {}, { timeout: 5_000 })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Support is typing…')).not.toBeInTheDocument(), { timeout: 5_000 });
    expect(await within(log).findByText('Live from support', {}, { timeout: 5_000 })).toBeInTheDocument();
    expect(within(log).getAllByText('Live from support')).toHaveLength(1);
  });

  it('a message sent before the chat session has started waits for it and goes once, not dropped', async () => {
    const calls = serve();
    server.use(
      http.post(`${CHAT_HTTP}/api/customers/orders/${ORDER}/messages`, async ({ request }) => {
        const form = await request.formData();
        calls.posts.push({ key: request.headers.get('Idempotency-Key'), message: String(form.get('message')), direction: '' });
        return HttpResponse.json(message(11, 2, 'Early bird', { clientId: request.headers.get('Idempotency-Key') }));
      }),
    );
    const { user } = await open();
    const box = await screen.findByLabelText('Message to support', {}, { timeout: 10_000 });
    await waitFor(() => expect(chatSessionStore.get()).not.toBeNull());
    // The page can be drawn before the session's code has run (ADR 0100): as if it had not yet.
    const running = chatSessionStore.get();
    chatSessionStore.set(null);
    await user.type(box, 'Early bird{Enter}');
    expect(box).toHaveValue('');
    expect(calls.posts).toHaveLength(0);
    chatSessionStore.set(running);
    await waitFor(() => expect(calls.posts).toHaveLength(1));
    expect(calls.posts[0]!.message).toBe(JSON.stringify({ body: 'Early bird' }));
    expect(await within(screen.getByRole('log', { name: 'Messages with support' })).findByText('Early bird')).toBeInTheDocument();
  });

  it("sends with Enter and an Idempotency-Key; a refusal shows the server's message, keeps the text and Retry sends it", async () => {
    const calls = serve();
    let refuse = true;
    server.use(
      http.post(`${CHAT_HTTP}/api/customers/orders/${ORDER}/messages`, async ({ request }) => {
        const form = await request.formData();
        calls.posts.push({
          key: request.headers.get('Idempotency-Key'),
          message: String(form.get('message')),
          direction: String(form.get('direction')),
        });
        if (refuse) {
          refuse = false;
          return HttpResponse.json({ message: 'You are sending messages too fast.' }, { status: 422 });
        }
        return HttpResponse.json(message(10, 2, 'Is it ready?', { clientId: request.headers.get('Idempotency-Key') }));
      }),
    );
    const { user } = await open();
    const box = await screen.findByLabelText('Message to support', {}, { timeout: 10_000 });
    await user.type(box, 'Is it ready?{Enter}');
    expect(await screen.findByText(/Not sent: You are sending messages too fast\./)).toBeInTheDocument();
    const log = screen.getByRole('log', { name: 'Messages with support' });
    expect(within(log).getByText('Is it ready?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Retry/ }));
    expect(await within(log).findByText('Sent')).toBeInTheDocument();
    expect(within(log).getAllByText('Is it ready?')).toHaveLength(1);
    expect(calls.posts).toHaveLength(2);
    expect(calls.posts[0]!.key).toMatch(/^[A-Za-z0-9_:.-]{1,64}$/);
    expect(calls.posts[1]!.key).toBe(calls.posts[0]!.key);
    expect(calls.posts[0]!.message).toBe(JSON.stringify({ body: 'Is it ready?' }));
    expect(calls.posts[0]!.direction).toBe('2');
  });

  it('does not send more than 1500 characters and says so; Shift+Enter breaks the line', async () => {
    serve();
    const { user } = await open();
    const box = await screen.findByLabelText('Message to support', {}, { timeout: 10_000 });
    await user.type(box, 'line one{Shift>}{Enter}{/Shift}line two');
    expect(box).toHaveValue('line one\nline two');
    await user.clear(box);
    await user.click(box);
    await user.paste('x'.repeat(1501));
    expect(screen.getByText('Message cannot be more than 1500 characters long.')).toBeInTheDocument();
    expect(screen.getByText('1501/1500')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it('counts characters as the server does: 1,500 emoji are sent, 1,501 refused (ADR 0068)', async () => {
    const calls = serve();
    server.use(
      http.post(`${CHAT_HTTP}/api/customers/orders/${ORDER}/messages`, async ({ request }) => {
        const form = await request.formData();
        calls.posts.push({
          key: request.headers.get('Idempotency-Key'),
          message: String(form.get('message')),
          direction: String(form.get('direction')),
        });
        const { body } = JSON.parse(String(form.get('message'))) as { body: string };
        return HttpResponse.json(message(10, 2, body, { clientId: request.headers.get('Idempotency-Key') }));
      }),
    );
    const { user } = await open();
    const box = await screen.findByLabelText('Message to support', {}, { timeout: 10_000 });
    await user.click(box);
    await user.paste('😀'.repeat(1501));
    expect(screen.getByText('1501/1500')).toBeInTheDocument();
    expect(screen.getByText('Message cannot be more than 1500 characters long.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
    await user.clear(box);
    await user.paste('😀'.repeat(1500));
    expect(screen.getByText('1500/1500')).toBeInTheDocument();
    expect(screen.queryByText('Message cannot be more than 1500 characters long.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(calls.posts).toHaveLength(1));
    expect(calls.posts[0]!.message).toBe(JSON.stringify({ body: '😀'.repeat(1500) }));
  });

  it('loads the older page with ?before= the oldest message held when the top of the list comes into view', async () => {
    const history = Array.from({ length: 60 }, (_, i) => message(i + 1, 6, `Message ${i + 1}`, { state: { id: 2 } }));
    const calls = serve({ history });
    await open();
    const log = await screen.findByRole('log', { name: 'Messages with support' }, { timeout: 10_000 });
    await within(log).findByText('Message 60');
    // The first page is the newest 50; the top of the list is "in view" here, so the older page follows.
    expect(calls.pages[0]).toBe('?limit=50');
    expect(await within(log).findByText('Message 1')).toBeInTheDocument();
    expect(calls.pages.some((s) => s.includes('before=11'))).toBe(true);
    expect(within(log).queryByRole('button', { name: 'Load older messages' })).not.toBeInTheDocument();
  });
});
