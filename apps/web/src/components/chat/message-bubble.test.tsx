import { http, HttpResponse } from 'msw';
import axe from 'axe-core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { EMOJI } from '@app/domain/chat/rules';
import type { ChatMessage } from '@app/domain/chat';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { messageFileUrl } from '@/lib/chat/api';
import type { OutboxEntry } from '@/lib/chat/outbox';
import { emojiImage } from './emoji';
import { MessageBubble, PendingBubble } from './message-bubble';

/**
 * ADR 0095: the chat's media in the shared bubbles (customer and console alike): pictures as thumbnails
 * through the attachment's download link, opening large; sizes; each file's upload progress; SPEC's 39
 * emoji as pictures; the writer's name.
 */

const ORDER = 100;
const message = (change: Partial<ChatMessage> = {}): ChatMessage => ({
  id: 7,
  orderId: ORDER,
  sequence: 7,
  direction: { id: 3 },
  state: { id: 1 },
  body: '',
  sticker: null,
  emoji: null,
  files: [],
  dateCreated: '2026-11-20T10:00:00.000Z',
  clientId: null,
  ...change,
});

// The build keeps each picture a file (vite.config.ts); the test's transform may inline it as a data address.
const SVG = /(\.svg$)|(^data:image\/svg\+xml,)/;
const CHART = { id: 41, name: 'chart.png', typeName: 'png', size: 1_258_291 };
const NOTES = { id: 42, name: 'notes.pdf', typeName: 'pdf', size: 12_800 };

/**
 * axe on the rendered DOM. Colour contrast needs a layout, and "region" (content inside landmarks) a whole
 * page: the journeys' axe runs check both (e2e/chat.spec.ts).
 */
const expectNoAxeViolations = async (root: Element = document.body) => {
  const result = await axe.run(root, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } });
  expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
};

/** The download routes as the server answers them (ADR 0080): `?link=1` with the bearer gives the ticketed path. */
const serveLinks = (status = 200) => {
  const asked: { fileId: string; auth: string | null }[] = [];
  server.use(
    http.get('*/chat/api/customers/orders/:orderId/messages/files/:fileId', ({ request, params }) => {
      const url = new URL(request.url);
      if (url.searchParams.get('link') !== '1') return new HttpResponse(null, { status: 400 });
      asked.push({ fileId: String(params.fileId), auth: request.headers.get('Authorization') });
      if (status !== 200) return HttpResponse.json({ message: 'Not found' }, { status });
      return HttpResponse.json({
        url: `/chat/api/customers/orders/${String(params.orderId)}/messages/files/${String(params.fileId)}?ticket=t-${String(params.fileId)}`,
      });
    }),
  );
  return asked;
};

// happy-dom lays nothing out, so its IntersectionObserver never reports: this one says every observed thumbnail is in view.
class InView {
  constructor(private readonly report: IntersectionObserverCallback) {}
  observe(target: Element) {
    queueMicrotask(() =>
      this.report([{ isIntersecting: true, target } as IntersectionObserverEntry], this as unknown as IntersectionObserver),
    );
  }
  unobserve() {}
  disconnect() {}
}

beforeEach(() => {
  vi.stubGlobal('IntersectionObserver', InView);
  signIn('access-chat');
});
afterEach(() => vi.unstubAllGlobals());

const bubble = (m: ChatMessage, props: { showAuthor?: boolean; author?: string } = {}) =>
  render(
    <MessageBubble
      message={m}
      own={false}
      author={props.author ?? 'Writer'}
      showAuthor={props.showAuthor ?? false}
      time="10:00"
      fileUrl={(fileId) => messageFileUrl('customer', ORDER, fileId)}
    />,
  );

describe('pictures and files in a message', () => {
  it('shows a picture as a thumbnail loaded through its download link, every file with its size, and opens the picture large', async () => {
    const asked = serveLinks();
    bubble(message({ files: [CHART, NOTES] }));
    const thumbnail = screen.getByRole('button', { name: 'Open picture chart.png, 1.2 mb' });
    await waitFor(() =>
      expect(thumbnail.querySelector('img')?.getAttribute('src')).toMatch(
        /\/chat\/api\/customers\/orders\/100\/messages\/files\/41\?ticket=t-41$/,
      ),
    );
    // The link is asked with the bearer token; no token ever sits in an address.
    expect(asked).toEqual([{ fileId: '41', auth: 'Bearer access-chat' }]);
    expect(thumbnail.querySelector('img')?.getAttribute('src')).not.toContain('access-chat');
    // A file that is not a picture stays a download, with its size too.
    expect(screen.getByRole('button', { name: /notes\.pdf 13 kb/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Open picture notes/ })).toBeNull();
    await expectNoAxeViolations();

    fireEvent.click(thumbnail);
    const dialog = await screen.findByRole('dialog', { name: 'chart.png' });
    expect(within(dialog).getByRole('img', { name: 'chart.png' }).getAttribute('src')).toContain('?ticket=t-41');
    expect(within(dialog).getByRole('button', { name: /Download/ })).toBeInTheDocument();
    // The thumbnail and the large view share one link.
    expect(asked).toHaveLength(1);
    // (Radix's focus guards beside an open dialog trip axe's aria-hidden-focus in a DOM without layout: the dialog is checked.)
    await expectNoAxeViolations(dialog);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("another customer's picture (the route answers 404) shows a placeholder and keeps the page", async () => {
    const asked = serveLinks(404);
    bubble(message({ files: [{ ...CHART, id: 99 }] }));
    expect(await screen.findByText('Preview not available')).toBeInTheDocument();
    expect(asked.map((a) => a.fileId)).toEqual(['99']);
    fireEvent.click(screen.getByRole('button', { name: /Open picture chart\.png/ }));
    const dialog = await screen.findByRole('dialog', { name: 'chart.png' });
    expect(within(dialog).getByText('Preview not available. The file can still be downloaded.')).toBeInTheDocument();
    await expectNoAxeViolations(dialog);
  });

  it('a picture that fails to load asks one fresh link, then shows the placeholder', async () => {
    const asked = serveLinks();
    bubble(message({ files: [{ ...CHART, id: 77 }] }));
    const thumbnail = screen.getByRole('button', { name: /Open picture chart\.png/ });
    await waitFor(() => expect(thumbnail.querySelector('img')).not.toBeNull());
    fireEvent.error(thumbnail.querySelector('img')!);
    await waitFor(() => expect(asked).toHaveLength(2));
    await waitFor(() => expect(thumbnail.querySelector('img')).not.toBeNull());
    fireEvent.error(thumbnail.querySelector('img')!);
    expect(await within(thumbnail).findByText('Preview not available')).toBeInTheDocument();
    expect(asked).toHaveLength(2);
  });
});

describe('emoji, stickers and names', () => {
  it("draws every one of SPEC's 39 emoji from the image set", () => {
    expect(EMOJI).toHaveLength(39);
    for (const emoji of EMOJI) expect(emojiImage(emoji), emoji).toMatch(SVG);
    // With or without U+FE0F, the same picture; anything else is no picture of ours.
    expect(emojiImage('❤')).toBe(emojiImage('❤️'));
    expect(emojiImage('🦄')).toBeUndefined();
  });

  it('draws the emoji of a text as pictures named by the emoji, and keeps the text', async () => {
    bubble(message({ body: 'Great work 👍 thanks ❤️ (and ❤ too) 🦄' }));
    const paragraph = screen.getByText(/Great work/);
    expect(
      within(paragraph)
        .getAllByRole('img')
        .map((img) => img.getAttribute('alt')),
    ).toEqual(['👍', '❤️', '❤']);
    // What a reader copies, and what a screen reader reads, is the message as written (🦄 is not in SPEC's list: text).
    const text = Array.from(paragraph.childNodes)
      .map((n) => (n instanceof HTMLImageElement ? n.alt : n.textContent))
      .join('');
    expect(text).toBe('Great work 👍 thanks ❤️ (and ❤ too) 🦄');
    await expectNoAxeViolations();
  });

  it('an emoji message is one picture named "Emoji …", a sticker a picture named by the sticker', async () => {
    bubble(message({ emoji: '🎉' }));
    expect(screen.getByRole('img', { name: 'Emoji 🎉' }).querySelector('img')?.getAttribute('src')).toMatch(SVG);
    bubble(message({ id: 8, sticker: 2 }));
    expect(screen.getByRole('img', { name: 'Sticker: Heart' })).toBeInTheDocument();
    await expectNoAxeViolations();
  });

  it("shows the writer's name over their message when asked", async () => {
    bubble(message({ body: 'Hello', senderName: 'Maria S.' }), { author: 'Maria S.', showAuthor: true });
    expect(screen.getByText('Maria S.')).toBeVisible();
    await expectNoAxeViolations();
  });
});

describe('a message being sent', () => {
  const entry = (files: File[]): OutboxEntry => ({
    clientId: 'c-1',
    orderId: ORDER,
    chat: 'writer',
    payload: { kind: 'text', body: 'Two files' },
    files,
    seq: 1,
    status: 'sending',
    createdAt: '2026-11-20T10:00:00.000Z',
    attempts: 1,
  });

  it('shows each file with its size and its own share of the upload progress', async () => {
    const picture = new File([new Uint8Array(3 * 1024)], 'photo.jpg', { type: 'image/jpeg' });
    const pdf = new File([new Uint8Array(1024)], 'brief.pdf', { type: 'application/pdf' });
    render(
      <PendingBubble entry={entry([picture, pdf])} percent={50} offline={false} onRetry={() => undefined} onCancel={() => undefined} />,
    );
    const list = screen.getByRole('list', { name: 'Files being sent' });
    expect(within(list).getByText('3 kb')).toBeInTheDocument();
    expect(within(list).getByText('1 kb')).toBeInTheDocument();
    // Half of 4 kb sent: two thirds of the picture, nothing of the pdf yet.
    expect(screen.getByRole('progressbar', { name: 'Uploading photo.jpg' })).toHaveAttribute('aria-valuenow', '67');
    expect(screen.getByRole('progressbar', { name: 'Uploading brief.pdf' })).toHaveAttribute('aria-valuenow', '0');
    // The picture is previewed from the customer's own file.
    expect(list.querySelector('img')?.getAttribute('src')).toMatch(/^blob:/);
    await expectNoAxeViolations();
  });
});
