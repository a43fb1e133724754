import type { Readable } from 'node:stream';
import {
  CHAT_MESSAGE,
  chatOfDirection,
  DomainError,
  ERROR_CODE,
  isEmoji,
  isStickerId,
  isValidClientId,
  MESSAGE_FILES_MAX,
  messageBodyProblem,
  messageContentSchema,
  parseReadIds,
  ROLE,
  staffDirectionOf,
  normalizeMessageBody,
  UNSEEN_MAIL_AFTER_MS,
  type ChatId,
  type ChatMessage,
  type MessageDirectionId,
  type MessageListQuery,
  type OrderUnread,
  type ReadAnswer,
  type ReadBody,
  type StaffUnreadSummary,
  type UnreadSummary,
} from '@app/domain';
import type { Clock } from '../../lib/clock';
import { batchPerTurn } from '../../lib/batch';
import { parseId } from '../../lib/ids';
import type { FilesService, IncomingFile } from '../files';
import type { ChatBus } from './chat.bus';
import type {
  ChatOrder,
  BatchedMessage,
  BatchInserted,
  ChatRepo,
  CustomerUnread,
  InsertedMessage,
  NewMessageFile,
  Reader,
  SendTargetKey,
  StoredMessage,
  UnreadCounts,
} from './chat.repo';

const NOT_FOUND = 'Not found';

/** Who calls: a customer, or a staff member (writer 3, support 6), as the auth guard left them. */
export interface ChatActor {
  userId: number;
  role: number;
}
const isSupport = (actor: ChatActor): boolean => actor.role === ROLE.support;
const isWriter = (actor: ChatActor): boolean => actor.role === ROLE.writer;
/** CONTRACT "Staff side": a writer sees the writer chat of orders assigned to them; support both chats of every order. */
const chatsOf = (actor: ChatActor): readonly ChatId[] => (isWriter(actor) ? ['writer'] : ['writer', 'support']);
/** The chats whose unread count is the actor's: a writer's the writer chat, support's the support chat. */
const readsOf = (actor: ChatActor): readonly ChatId[] => (isWriter(actor) ? ['writer'] : ['support']);

export const toWireMessage = (m: StoredMessage): ChatMessage => ({
  id: m.id,
  orderId: m.orderId,
  sequence: m.sequence,
  direction: { id: m.direction },
  state: { id: m.read ? 2 : 1 },
  body: m.body,
  sticker: m.sticker,
  emoji: m.emoji,
  files: m.files,
  dateCreated: m.createdAt.toISOString(),
  clientId: m.clientId,
});

/** A customer's message goes to the chat of `direction` 1 or 2; a writer's is 3, support's 6, whatever the form says. */
const directionOf = (actor: ChatActor, raw: string | undefined): MessageDirectionId => {
  if (isWriter(actor) || isSupport(actor)) return staffDirectionOf(isWriter(actor) ? 'writer' : 'support');
  if (raw !== '1' && raw !== '2') {
    throw new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.invalidDirection, { direction: [CHAT_MESSAGE.invalidDirection] });
  }
  return raw === '1' ? 1 : 2;
};

const toUnread = (c: UnreadCounts): OrderUnread => ({ total: c.writer + c.support, writer: c.writer, support: c.support });

/** The parsed `message` field: exactly one of body, sticker, emoji (CONTRACT "Chat"), HTML stripped (SPEC §5). */
const parseContent = (raw: string | undefined, hasFiles: boolean): { body: string; sticker: number | null; emoji: string | null } => {
  let json: unknown;
  try {
    json = JSON.parse(raw ?? (hasFiles ? '{"body":""}' : ''));
  } catch {
    throw new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.invalidMessage, { message: [CHAT_MESSAGE.invalidMessage] });
  }
  const parsed = messageContentSchema.safeParse(json);
  if (!parsed.success)
    throw new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.invalidMessage, { message: [CHAT_MESSAGE.invalidMessage] });
  const content = parsed.data;
  if ('sticker' in content) {
    if (!isStickerId(content.sticker))
      throw new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.invalidSticker, { message: [CHAT_MESSAGE.invalidSticker] });
    return { body: '', sticker: content.sticker, emoji: null };
  }
  if ('emoji' in content) {
    if (!isEmoji(content.emoji))
      throw new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.invalidEmoji, { message: [CHAT_MESSAGE.invalidEmoji] });
    return { body: '', sticker: null, emoji: content.emoji };
  }
  const body = normalizeMessageBody(content.body);
  const problem = messageBodyProblem(body, hasFiles);
  if (problem) throw new DomainError(ERROR_CODE.validation, problem, { message: [problem] });
  return { body, sticker: null, emoji: null };
};

/** A batch of sends that could not be stored together: each is sent on its own. */
const SEND_ALONE = new Error('send alone');

/** Wire messages just stored, so this instance's wake-up need not read them back (bounded). */
const RECENT_MAX = 2_000;

export interface ChatServiceDeps {
  repo: ChatRepo;
  files: Pick<FilesService, 'storeMessengerFile' | 'discard' | 'openStored'>;
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
  // ADR 0063, 0066: the messages without files of one turn are checked and stored in one statement; when
  // it fails (a client id repeated within the turn, anything), each is sent on its own (SEND_ALONE).
  const insertChecked = batchPerTurn<BatchedMessage, BatchInserted | null>(async (batch) => {
    try {
      return await repo.insertMany(batch);
    } catch {
      return batch.map(() => SEND_ALONE);
    }
  });
  const loadSendTarget = batchPerTurn((keys: readonly SendTargetKey[]) => repo.sendTargets(keys));
  const loadCustomerUnread = batchPerTurn((keys: readonly { customerId: number; orderId: number }[]) => repo.customerUnreadMany(keys));

  const customerOrder = async (customerId: number, rawOrderId: string | number): Promise<ChatOrder> => {
    const order = await repo.customerOrder({ customerId, orderId: typeof rawOrderId === 'number' ? rawOrderId : parseId(rawOrderId) });
    if (!order) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
    return order;
  };
  const staffOrder = async (actor: ChatActor, rawOrderId: string | number): Promise<ChatOrder> => {
    const order = await repo.staffOrder({
      orderId: typeof rawOrderId === 'number' ? rawOrderId : parseId(rawOrderId),
      writerId: isSupport(actor) ? null : actor.userId,
    });
    if (!order) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
    return order;
  };
  const isCustomer = (actor: ChatActor): boolean => !isSupport(actor) && !isWriter(actor);
  /** The order as the actor may see it: another customer's, or one not assigned to a writer, is a 404. */
  const orderFor = (actor: ChatActor, rawOrderId: string | number): Promise<ChatOrder> =>
    isCustomer(actor) ? customerOrder(actor.userId, rawOrderId) : staffOrder(actor, rawOrderId);

  const unreadFor = async (actor: ChatActor, order: ChatOrder): Promise<OrderUnread> =>
    toUnread(
      isCustomer(actor)
        ? await repo.customerUnread({ customerId: order.customerId, orderId: order.orderId })
        : await repo.staffUnread({ orderId: order.orderId, chats: readsOf(actor) }),
    );

  const loadOne = async (id: number, customerId: number | null): Promise<ChatMessage> => {
    const [stored] = await repo.byIds({ ids: [id], customerId });
    if (!stored) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
    return toWireMessage(stored);
  };

  /** A message just stored is answered and wakes every instance; one stored before under the same client id is answered again. */
  const announce = async (actor: ChatActor, order: ChatOrder, inserted: InsertedMessage): Promise<ChatMessage> => {
    if (!inserted.created) return loadOne(inserted.id, order.customerId);
    const wire = inserted.stored ? toWireMessage(inserted.stored) : await loadOne(inserted.id, order.customerId);
    remember(wire);
    bus.publish({
      t: 'message',
      orderId: order.orderId,
      customerId: order.customerId,
      writerId: order.writerId,
      chat: chatOfDirection(wire.direction.id),
      messageId: inserted.id,
      fromCustomer: isCustomer(actor),
      ...(inserted.customerUnread ? { unread: inserted.customerUnread } : {}),
    });
    return wire;
  };

  const service = {
    orderFor,
    chatsOf,

    /** CONTRACT "Chat": `?before=&limit=` (newest page before) or `?after=&limit=` (catch-up), oldest first. */
    history: async ({
      actor,
      orderId,
      query,
    }: {
      actor: ChatActor;
      orderId: string;
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

    /**
     * Before the body is read: the order (404 when not the actor's), and the message already stored under
     * this Idempotency-Key by this sender, if any (the answer to a retry; nothing is read or stored).
     */
    prepareSend: async ({ actor, orderId, clientId }: { actor: ChatActor; orderId: string; clientId: string | undefined }) => {
      const validClientId = clientId !== undefined && isValidClientId(clientId) ? clientId : null;
      // One read: the order (another customer's, or a writer's unassigned one, is a 404) and the retry's answer.
      const target = await loadSendTarget({
        orderId: parseId(orderId),
        customerId: isCustomer(actor) ? actor.userId : null,
        writerId: isCustomer(actor) || isSupport(actor) ? null : actor.userId,
        senderId: actor.userId,
        clientId: validClientId,
      });
      if (!target) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
      if (clientId !== undefined && validClientId === null) throw new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.invalidClientId);
      const { order, existingId } = target;
      return { order, existing: existingId === null ? null : await loadOne(existingId, order.customerId) };
    },

    /** One attachment, streamed through the files module's checks (SPEC §5: 15 MB, types); a customer's counts against their quota. */
    storeAttachment: async ({ actor, file, count }: { actor: ChatActor; file: IncomingFile; count: number }): Promise<NewMessageFile> => {
      if (count >= MESSAGE_FILES_MAX)
        throw new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.tooManyFiles, { files: [CHAT_MESSAGE.tooManyFiles] });
      const stored = await files.storeMessengerFile({ quotaOf: isCustomer(actor) ? actor.userId : null, file });
      return { name: stored.name, typeName: stored.typeName, size: stored.size, storageKey: stored.key };
    },
    /** Removes attachments a refused or repeated message did not take. */
    discard: async (stored: NewMessageFile[]): Promise<void> => {
      for (const f of stored) await files.discard(f.storageKey);
    },

    /**
     * CONTRACT "Chat": stores the message (a customer's in the chat of `direction` 1 or 2; a writer's is 3,
     * support's 6, whatever the form says) and wakes every instance. The same client id again returns the
     * stored message and stores nothing (its attachments are discarded).
     */
    send: async ({
      actor,
      order,
      direction: rawDirection,
      message,
      files: stored,
      clientId,
    }: {
      actor: ChatActor;
      order: ChatOrder;
      direction: string | undefined;
      message: string | undefined;
      files: NewMessageFile[];
      clientId: string | undefined;
    }): Promise<ChatMessage> => {
      const direction = directionOf(actor, rawDirection);
      const content = parseContent(message, stored.length > 0);
      const now = clock.now();
      const inserted = await repo.insert({
        orderId: order.orderId,
        customerId: order.customerId,
        chat: chatOfDirection(direction),
        direction,
        senderId: actor.userId,
        ...content,
        clientId: clientId ?? null,
        files: stored,
        now,
        unseenDueAt: isCustomer(actor) ? null : new Date(now.getTime() + UNSEEN_MAIL_AFTER_MS),
      });
      if (!inserted.created) for (const f of stored) await files.discard(f.storageKey);
      return announce(actor, order, inserted);
    },

    /**
     * ADR 0066: a message without files, checked and stored in one statement with the other sends of its
     * turn: the order as the actor may see it (else a 404), the message stored before under the same
     * client id (answered again), else the new message. A form that is not valid, or a turn that could
     * not be stored together, takes the way of a message with files (`prepareSend`, then `send`), so it
     * gets the same answers in the same order: 404 first, then a retry's stored message, then the problem.
     */
    sendWithoutFiles: async ({
      actor,
      orderId,
      direction: rawDirection,
      message,
      clientId,
    }: {
      actor: ChatActor;
      orderId: string;
      direction: string | undefined;
      message: string | undefined;
      clientId: string | undefined;
    }): Promise<ChatMessage> => {
      const alone = async (): Promise<ChatMessage> => {
        const { order, existing } = await service.prepareSend({ actor, orderId, clientId });
        return existing ?? service.send({ actor, order, direction: rawDirection, message, files: [], clientId });
      };
      let direction: MessageDirectionId;
      let content: ReturnType<typeof parseContent>;
      try {
        if (clientId !== undefined && !isValidClientId(clientId)) return await alone();
        direction = directionOf(actor, rawDirection);
        content = parseContent(message, false);
      } catch {
        return alone();
      }
      const now = clock.now();
      let inserted: BatchInserted | null;
      try {
        inserted = await insertChecked({
          orderId: parseId(orderId),
          viewerCustomerId: isCustomer(actor) ? actor.userId : null,
          viewerWriterId: isWriter(actor) ? actor.userId : null,
          chat: chatOfDirection(direction),
          direction,
          senderId: actor.userId,
          ...content,
          clientId: clientId ?? null,
          now,
          unseenDueAt: isCustomer(actor) ? null : new Date(now.getTime() + UNSEEN_MAIL_AFTER_MS),
        });
      } catch (error) {
        if (error === SEND_ALONE) return alone();
        throw error;
      }
      if (!inserted) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
      return announce(actor, inserted.order, inserted);
    },

    /** `GET …/messages/unread` → `{ total, writer, support }` (the actor's side). */
    unread: async ({ actor, orderId }: { actor: ChatActor; orderId: string }): Promise<OrderUnread> =>
      unreadFor(actor, await orderFor(actor, orderId)),

    /** `GET {chat}/api/customers/orders/unread` → `{ total, orders: [{ orderId, total }] }`. */
    unreadSummary: async ({ customerId }: { customerId: number }): Promise<UnreadSummary> => {
      const orders = (await repo.customerUnreadSummary({ customerId })).map((o) => ({ orderId: o.orderId, total: o.writer + o.support }));
      return { total: orders.reduce((sum, o) => sum + o.total, 0), orders };
    },

    /** The staff side's summary (ADR 0047): a writer's assigned orders' writer chats, support's support chats. */
    staffUnreadSummary: async ({ actor }: { actor: ChatActor }): Promise<StaffUnreadSummary> => {
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
    read: async ({ actor, orderId, body }: { actor: ChatActor; orderId: string; body: ReadBody }): Promise<ReadAnswer> => {
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
    writerOnline: async ({ customerId, orderId }: { customerId: number; orderId: string }): Promise<{ online: boolean }> => {
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
      actor: ChatActor;
      orderId: number;
      chat: ChatId | undefined;
      start: boolean;
    }): Promise<boolean> => {
      const order = isCustomer(actor)
        ? await repo.customerOrder({ customerId: actor.userId, orderId })
        : await repo.staffOrder({ orderId, writerId: isSupport(actor) ? null : actor.userId });
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
    file: async ({
      actor,
      orderId,
      fileId,
    }: {
      actor: ChatActor;
      orderId: string;
      fileId: string;
    }): Promise<{ name: string; size: number; stream: Readable }> => {
      const order = await orderFor(actor, orderId);
      const file = await repo.findFile({
        orderId: order.orderId,
        fileId: parseId(fileId),
        customerId: isCustomer(actor) ? actor.userId : null,
        chats: isCustomer(actor) ? ['writer', 'support'] : chatsOf(actor),
      });
      if (!file) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
      return { name: file.name, size: file.size, stream: await files.openStored(file.storageKey) };
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
  return service;
};
export type ChatService = ReturnType<typeof createChatService>;
