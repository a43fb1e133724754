import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_SEND_BURST,
  messageListSchema,
  orderUnreadSchema,
  readAnswerSchema,
  SOCKET_EVENT,
  type ChatMessage,
  type OrderUnread,
} from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { chatFixtures, messageForm, openSocket, type TestSocket } from '../../testing/chat-fixtures';
import type { ChatHandle } from './index';

/**
 * ADR 0047: unread counts cannot drift. Random interleavings of staff and customer sends, reads from
 * either of two tabs (of any subset of what the tab has seen, in any order), and tab reconnects; after
 * every step each count the customer can see (the read answer, GET unread, each tab's latest frame 5 or
 * the GET it made on connecting) equals a recount from the messages, and the model's.
 */
let t: TestApp;
let fx: ReturnType<typeof chatFixtures>;
let handle: ChatHandle | undefined;
let base: string;
let run = 0;

type Command =
  | { kind: 'staff'; chat: 'writer' | 'support' }
  | { kind: 'customer'; chat: 'writer' | 'support' }
  | { kind: 'read'; tab: 0 | 1; pick: number[] }
  | { kind: 'reconnect'; tab: 0 | 1 };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('staff' as const), chat: fc.constantFrom('writer' as const, 'support' as const) }),
  fc.record({ kind: fc.constant('customer' as const), chat: fc.constantFrom('writer' as const, 'support' as const) }),
  fc.record({
    kind: fc.constant('read' as const),
    tab: fc.constantFrom(0 as const, 1 as const),
    pick: fc.array(fc.nat(40), { maxLength: 5 }),
  }),
  fc.record({ kind: fc.constant('reconnect' as const), tab: fc.constantFrom(0 as const, 1 as const) }),
);

beforeAll(async () => {
  t = await buildTestApp({ onChatReady: (h) => (handle = h) });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  fx = chatFixtures(t);
});
afterAll(async () => {
  await t.close();
});

describe('ADR 0047: unread counts equal a recount from the messages', () => {
  it('holds for random sends, reads, reconnects and two tabs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 4, maxLength: 16 }), async (commands) => {
        run += 1;
        const customer = await fx.customer(`chat.prop.${run}@example.com`);
        const writer = await fx.writer(`chat.prop.writer.${run}@example.com`);
        const support = await fx.support(`chat.prop.support.${run}@example.com`);
        const orderId = await fx.order(customer.id, writer.id);
        const auth = (token: string) => ({ authorization: `Bearer ${token}` });
        const sends = new Map<string, number>();
        // The model: every message, and the customer's read pointer per chat.
        const messages: ChatMessage[] = [];
        const pointer = { writer: 0, support: 0 };
        const model = (): OrderUnread => {
          const count = (chat: 'writer' | 'support') =>
            messages.filter((m) => (chat === 'writer' ? m.direction.id === 3 : m.direction.id === 6) && m.sequence > pointer[chat]).length;
          return { total: count('writer') + count('support'), writer: count('writer'), support: count('support') };
        };

        const tabs: { socket: TestSocket; count: OrderUnread; seen: Set<number> }[] = [];
        const getUnread = async () =>
          orderUnreadSchema.parse(
            (
              await t.app.inject({
                method: 'GET',
                url: `/chat/api/customers/orders/${orderId}/messages/unread`,
                headers: auth(customer.token),
              })
            ).json(),
          );
        const connect = async (i: number) => {
          const socket = await openSocket(`${base}/chat/customers/orders/messages?accessToken=${customer.token}`);
          // Subscribe first, then fetch (the client's order): frames from now on update the count.
          const tab = { socket, count: { total: 0, writer: 0, support: 0 }, seen: new Set(messages.map((m) => m.id)) };
          socket.ws.on('message', (raw) => {
            const frame = JSON.parse(raw.toString()) as { event: number; data: Record<string, unknown> };
            if (frame.event === SOCKET_EVENT.unread && frame.data.orderId === orderId) {
              tab.count = { total: frame.data.total as number, writer: frame.data.writer as number, support: frame.data.support as number };
            }
            if (frame.event === SOCKET_EVENT.newMessage) tab.seen.add((frame.data.message as ChatMessage).id);
          });
          tab.count = await getUnread();
          tabs[i] = tab;
        };
        const settle = async () => {
          await handle?.hub.idle();
          for (const tab of tabs) {
            tab.socket.send({ event: SOCKET_EVENT.ping });
            await tab.socket.next((f) => f.event === SOCKET_EVENT.pong);
          }
        };
        const check = async (step: string) => {
          await settle();
          const expected = model();
          expect(await getUnread(), `GET unread after ${step}`).toEqual(expected);
          const listed = messageListSchema.parse(
            (
              await t.app.inject({
                method: 'GET',
                url: `/chat/api/customers/orders/${orderId}/messages?limit=100`,
                headers: auth(customer.token),
              })
            ).json(),
          ).messages;
          const recount = (ids: number[]) => listed.filter((m) => ids.includes(m.direction.id) && m.state.id === 1).length;
          expect({ total: recount([3, 6]), writer: recount([3]), support: recount([6]) }, `recount after ${step}`).toEqual(expected);
          tabs.forEach((tab, i) => expect(tab.count, `tab ${i} after ${step}`).toEqual(expected));
        };

        try {
          await connect(0);
          await connect(1);
          for (const [index, c] of commands.entries()) {
            const step = `${index}: ${JSON.stringify(c)}`;
            if (c.kind === 'staff' || c.kind === 'customer') {
              const sender = c.kind === 'customer' ? customer : c.chat === 'writer' ? writer : support;
              const key = `${c.kind}:${c.chat}`;
              // The send limit is per account; the sequence of a run stays under its burst.
              if ((sends.get(String(sender.id)) ?? 0) >= CHAT_SEND_BURST.max) continue;
              sends.set(String(sender.id), (sends.get(String(sender.id)) ?? 0) + 1);
              const form = messageForm({ direction: c.chat === 'writer' ? '1' : '2', message: JSON.stringify({ body: key }) });
              const res = await t.app.inject({
                method: 'POST',
                url: `/chat/api/${c.kind === 'customer' ? 'customers' : 'staff'}/orders/${orderId}/messages`,
                headers: { ...auth(sender.token), ...form.headers },
                payload: form.payload,
              });
              expect(res.statusCode, step).toBe(200);
              messages.push(res.json() as ChatMessage);
            } else if (c.kind === 'read') {
              const tab = tabs[c.tab];
              const seen = [...(tab?.seen ?? [])];
              const ids = c.pick.map((p) => seen[p % Math.max(seen.length, 1)]).filter((id): id is number => id !== undefined);
              const res = await t.app.inject({
                method: 'PUT',
                url: `/chat/api/customers/orders/${orderId}/messages/read`,
                headers: auth(customer.token),
                payload: { messages: ids.join(',') },
              });
              for (const m of messages) {
                if (!ids.includes(m.id) || m.direction.id === 1 || m.direction.id === 2) continue;
                const chat = m.direction.id === 3 ? 'writer' : 'support';
                pointer[chat] = Math.max(pointer[chat], m.sequence);
              }
              expect(readAnswerSchema.parse(res.json()).unread, `read answer after ${step}`).toEqual(model());
            } else {
              tabs[c.tab]?.socket.close();
              await tabs[c.tab]?.socket.closed;
              await connect(c.tab);
            }
            await check(step);
          }
        } finally {
          for (const tab of tabs) tab.socket.close();
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});
