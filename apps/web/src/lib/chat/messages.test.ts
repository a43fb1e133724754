import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { ChatMessage } from '@app/domain/chat';
import { server } from '@/testing/msw-server';
import { CHAT_HTTP } from '@/testing/msw-handlers';
import { signIn } from '@/testing/fixtures';
import { setChatBase } from './base';
import { chatKeys } from './keys';
import type { MessageWindow } from './merge';
import { mergeInto, messageWindowOptions } from './messages';

/** ADR 0076: the one owner of an order's messages, for either side, against the chat routes (MSW). */
const msg = (id: number, direction: 1 | 2 | 3 | 6 = 6): ChatMessage => ({
  id,
  orderId: 42,
  sequence: id,
  direction: { id: direction },
  state: { id: 1 },
  body: `m${id}`,
  sticker: null,
  emoji: null,
  files: [],
  dateCreated: new Date(Date.UTC(2030, 0, 5, 9, id)).toISOString(),
  clientId: null,
});

const ids = (queryClient: QueryClient) => queryClient.getQueryData<MessageWindow>(chatKeys.window(42))?.messages.map((m) => m.id);

beforeEach(() => {
  signIn();
  setChatBase({ http: CHAT_HTTP });
});
afterEach(() => window.localStorage.clear());

describe("an order's messages (lib/chat/messages.ts)", () => {
  it('keeps a message that arrives on the socket while the first page is on its way', async () => {
    let answer: (messages: ChatMessage[]) => void = () => undefined;
    let asked: () => void = () => undefined;
    const requested = new Promise<void>((resolve) => (asked = resolve));
    server.use(
      http.get(`${CHAT_HTTP}/api/customers/orders/42/messages`, async () => {
        asked();
        return HttpResponse.json({ messages: await new Promise<ChatMessage[]>((resolve) => (answer = resolve)) });
      }),
    );
    const queryClient = new QueryClient();
    const loading = queryClient.fetchQuery(messageWindowOptions(queryClient, 'customer', 42));
    await requested;
    // The server stored message 3 after it read the page it is sending: only the socket brings it.
    mergeInto(queryClient, 42, [msg(3)]);
    answer([msg(1), msg(2)]);
    await loading;
    expect(ids(queryClient)).toEqual([1, 2, 3]);
  });

  it("reads staff's paths for the staff side, and a later fetch asks only after the newest message held", async () => {
    const asked: string[] = [];
    server.use(
      http.get(`${CHAT_HTTP}/api/staff/orders/42/messages`, ({ request }) => {
        const url = new URL(request.url);
        asked.push(url.search);
        return HttpResponse.json({ messages: url.searchParams.has('after') ? [msg(5, 2)] : [msg(1, 2), msg(2, 6)] });
      }),
    );
    const queryClient = new QueryClient();
    await queryClient.fetchQuery(messageWindowOptions(queryClient, 'staff', 42));
    mergeInto(queryClient, 42, [msg(4, 2), msg(2, 6)]);
    await queryClient.refetchQueries({ queryKey: chatKeys.window(42) });
    expect(asked).toEqual(['?limit=50', '?limit=50&after=4']);
    expect(ids(queryClient)).toEqual([1, 2, 4, 5]);
  });
});
