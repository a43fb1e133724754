import {
  parseReadIds,
  type ChatId,
  type ChatMessage,
  type MessageListQuery,
  type OrderUnread,
  type ReadAnswer,
  type ReadBody,
  type StaffUnreadSummary,
  type UnreadSummary,
} from '@app/domain';
import type { Clock } from '../../lib/clock';
import { batchPerTurn } from '../../lib/batch';
import { isWriter, writerScope, type Actor } from '../../lib/actor';
import type { FilesService, StoredDownload } from '../files';
import { chatsOf, isCustomer, readsOf } from './chat.actor';
import type { ChatBus } from './chat.bus';
import { toWireMessage } from './chat.model';
import type { UnreadPerChat } from './chat.model';
import type { ChatOrder, ChatRepo, CustomerUnread, Reader } from './chat.repo';
import { createChatSendService } from './chat.send.service';
import { notFound } from '../../lib/errors';

const toUnread = (c: UnreadPerChat): OrderUnread => ({ total: c.writer + c.support, writer: c.writer, support: c.support });

/** Wire messages just stored, so this instance's wake-up need not read them back (bounded). */
const RECENT_MAX = 2_000;

export interface ChatServiceDeps {
  repo: ChatRepo;
  files: Pick<FilesService, 'storeMessengerFile' | 'chargeUploads' | 'discard' | 'storedDownload'>;
  bus: ChatBus;
  clock: Clock;
}

export const createChatService = ({ repo, files, bus, clock }: ChatServiceDeps) => {
  const recent = new Map<number, ChatMessage>();
  const remember = (message: ChatMessage): void => {
    recent.set(message.id, message);
    if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value as number);
  };

  // The socket hub's reads, batched per event-loop turn (ADR 0063): a message another instance stored, and
  // a customer's unread counts after a staff message or a read.
  const loadMessage = batchPerTurn(async (ids: readonly number[]): Promise<(ChatMessage | null)[]> => {
    const byId = new Map((await repo.byIds({ ids: [...ids], customerId: null })).map((m) => [m.id, toWireMessage(m)]));
    return ids.map((id) => byId.get(id) ?? null);
  });
  const loadCustomerUnread = batchPerTurn((keys: readonly { customerId: number; orderId: number }[]) => repo.customerUnreadMany(keys));

  const customerOrder = async (customerId: number, orderId: number): Promise<ChatOrder> => {
    const order = await repo.customerOrder({ customerId, orderId });
    if (!order) throw notFound();
    return order;
  };
  const staffOrder = async (actor: Actor, orderId: number): Promise<ChatOrder> => {
    const order = await repo.staffOrder({ orderId, writerId: writerScope(actor) });
    if (!order) throw notFound();
    return order;
  };
  /** The order as the actor may see it: another customer's, or one not assigned to a writer, is a 404. */
  const orderFor = (actor: Actor, orderId: number): Promise<ChatOrder> =>
    isCustomer(actor) ? customerOrder(actor.userId, orderId) : staffOrder(actor, orderId);

  const unreadFor = async (actor: Actor, order: ChatOrder): Promise<OrderUnread> =>
    toUnread(
      isCustomer(actor)
        ? await repo.customerUnread({ customerId: order.customerId, orderId: order.orderId })
        : await repo.staffUnread({ orderId: order.orderId, chats: readsOf(actor) }),
    );

  return {
    orderFor,
    chatsOf,

    /** CONTRACT "Chat": `?before=&limit=` (newest page before) or `?after=&limit=` (catch-up), oldest first. */
    history: async ({
      actor,
      orderId,
      query,
    }: {
      actor: Actor;
      orderId: number;
      query: MessageListQuery;
    }): Promise<{ messages: ChatMessage[] }> => {
      const order = await orderFor(actor, orderId);
      const rows = await repo.list({
        orderId: order.orderId,
        customerId: isCustomer(actor) ? actor.userId : null,
        chats: isCustomer(actor) ? ['writer', 'support'] : chatsOf(actor),
        before: query.before,
        after: query.after,
        limit: query.limit,
      });
      return { messages: rows.map(toWireMessage) };
    },

    // A send's steps (ADR 0047, 0063, 0066): chat.send.service.ts.
    ...createChatSendService({ repo, files, bus, clock, remember }),

    /** `GET …/messages/unread` → `{ total, writer, support }` (the actor's side). */
    unread: async ({ actor, orderId }: { actor: Actor; orderId: number }): Promise<OrderUnread> =>
      unreadFor(actor, await orderFor(actor, orderId)),

    /** `GET {chat}/api/customers/orders/unread` → `{ total, orders: [{ orderId, total }] }`. */
    unreadSummary: async ({ customerId }: { customerId: number }): Promise<UnreadSummary> => {
      const orders = (await repo.customerUnreadSummary({ customerId })).map((o) => ({ orderId: o.orderId, total: o.writer + o.support }));
      return { total: orders.reduce((sum, o) => sum + o.total, 0), orders };
    },

    /** The staff side's summary (ADR 0047): a writer's assigned orders' writer chats, support's support chats. */
    staffUnreadSummary: async ({ actor }: { actor: Actor }): Promise<StaffUnreadSummary> => {
      const chat: ChatId = isWriter(actor) ? 'writer' : 'support';
      const rows = await repo.staffUnreadSummary({ writerId: isWriter(actor) ? actor.userId : null, chat });
      const orders = rows.map((r) => ({
        orderId: r.orderId,
        total: r.n,
        writer: chat === 'writer' ? r.n : 0,
        support: chat === 'support' ? r.n : 0,
      }));
      return { total: orders.reduce((sum, o) => sum + o.total, 0), orders };
    },

    /**
     * CONTRACT `PUT …/messages/read { messages: "1,2,3" }` → `{ messages, unread }`. The other side's
     * messages among the ids are read: per chat the reader's pointer moves to the highest, never back.
     */
    read: async ({ actor, orderId, body }: { actor: Actor; orderId: number; body: ReadBody }): Promise<ReadAnswer> => {
      const order = await orderFor(actor, orderId);
      const reader: Reader = isCustomer(actor) ? 'customer' : isWriter(actor) ? 'writer' : 'support';
      const { ids, moved, customerUnread } = await repo.markRead({
        orderId: order.orderId,
        customerId: isCustomer(actor) ? actor.userId : null,
        reader,
        chats: isCustomer(actor) ? ['writer', 'support'] : readsOf(actor),
        ids: parseReadIds(body.messages),
        now: clock.now(),
      });
      for (const m of moved) {
        bus.publish({
          t: 'read',
          orderId: order.orderId,
          customerId: order.customerId,
          writerId: order.writerId,
          chat: m.chat,
          by: reader === 'customer' ? 'customer' : m.chat,
          messageId: m.messageId,
          sequence: m.sequence,
          ...(customerUnread ? { unread: customerUnread } : {}),
        });
      }
      return { messages: ids, unread: customerUnread ? toUnread(customerUnread) : await unreadFor(actor, order) };
    },

    /** CONTRACT "Paths": `GET {chat}/api/customers/orders/{id}/writer/online` → `{ online }`. */
    writerOnline: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<{ online: boolean }> => {
      const order = await customerOrder(customerId, orderId);
      return { online: order.writerId !== null && (await bus.isWriterOnline(order.writerId)) };
    },

    /** Typing from a socket: the customer's (11/12) to staff, a staff member's (13/14) to the customer. False when the order is not theirs. */
    typing: async ({
      actor,
      orderId,
      chat,
      start,
    }: {
      actor: Actor;
      orderId: number;
      chat: ChatId | undefined;
      start: boolean;
    }): Promise<boolean> => {
      const order = isCustomer(actor)
        ? await repo.customerOrder({ customerId: actor.userId, orderId })
        : await repo.staffOrder({ orderId, writerId: writerScope(actor) });
      if (!order) return false;
      const fromCustomer = isCustomer(actor);
      const which: ChatId = fromCustomer ? (chat ?? 'writer') : isWriter(actor) ? 'writer' : (chat ?? 'support');
      if (!fromCustomer && !chatsOf(actor).includes(which)) return false;
      bus.publish({
        t: 'typing',
        orderId: order.orderId,
        customerId: order.customerId,
        writerId: order.writerId,
        chat: which,
        fromCustomer,
        start,
      });
      return true;
    },

    /** An attachment of a message the actor may see. */
    file: async ({ actor, orderId, fileId }: { actor: Actor; orderId: number; fileId: number }): Promise<StoredDownload> => {
      const order = await orderFor(actor, orderId);
      const file = await repo.findFile({
        orderId: order.orderId,
        fileId,
        customerId: isCustomer(actor) ? actor.userId : null,
        chats: isCustomer(actor) ? ['writer', 'support'] : chatsOf(actor),
      });
      if (!file) throw notFound();
      return files.storedDownload(file);
    },

    /** What the socket hub reads when a wake-up concerns its sockets (the reads of one turn in one query, ADR 0063). */
    hubReads: {
      message: async (id: number): Promise<ChatMessage | null> => recent.get(id) ?? (await loadMessage(id)),
      customerUnread: (key: { customerId: number; orderId: number }): Promise<CustomerUnread> => loadCustomerUnread(key),
      staffUnread: async ({ orderId, chats }: { orderId: number; chats: readonly ChatId[] }): Promise<OrderUnread> =>
        toUnread(await repo.staffUnread({ orderId, chats })),
      ordersOfWriterFor: (input: { writerId: number; customerIds: number[] }) => repo.ordersOfWriterFor(input),
    },
  };
};
export type ChatService = ReturnType<typeof createChatService>;
