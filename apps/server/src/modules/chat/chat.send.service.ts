import {
  CHAT_MESSAGE,
  chatOfDirection,
  DomainError,
  ERROR_CODE,
  isEmoji,
  isMessageBodyOverRawCap,
  isStickerId,
  isValidClientId,
  MESSAGE_FILES_MAX,
  messageBodyProblem,
  MESSAGE_BODY_RAW_MAX_LENGTH,
  messageContentSchema,
  normalizeMessageBody,
  staffDirectionOf,
  UNSEEN_MAIL_AFTER_MS,
  type ChatMessage,
  type MessageDirectionId,
} from '@app/domain';
import type { Queryable } from '../../db/client';
import { batchPerTurn } from '../../lib/batch';
import type { Clock } from '../../lib/clock';
import { isSupport, isWriter, type Actor } from '../../lib/actor';
import type { FilesService, IncomingFile } from '../files';
import { isCustomer } from './chat.actor';
import type { ChatBus } from './chat.bus';
import { toWireMessage } from './chat.model';
import type { BatchedMessage, BatchInserted, ChatOrder, ChatRepo, InsertedMessage, NewMessageFile, SendTargetKey } from './chat.repo';
import { notFound } from '../../lib/errors';

/** A customer's message goes to the chat of `direction` 1 or 2; a writer's is 3, support's 6, whatever the form says. */
const directionOf = (actor: Actor, raw: string | undefined): MessageDirectionId => {
  if (isWriter(actor) || isSupport(actor)) return staffDirectionOf(isWriter(actor) ? 'writer' : 'support');
  if (raw !== '1' && raw !== '2') {
    throw new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.invalidDirection, { direction: [CHAT_MESSAGE.invalidDirection] });
  }
  return raw === '1' ? 1 : 2;
};

const tooLong = () => new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.tooLong, { message: [CHAT_MESSAGE.tooLong] });
/** A parsed `message` field whose body is over the raw cap (ADR 0067). */
const bodyOverRawCap = (json: unknown): boolean =>
  typeof json === 'object' && json !== null && 'body' in json && typeof json.body === 'string' && isMessageBodyOverRawCap(json.body);

/**
 * ADR 0067: a `message` field whose body is over the raw cap is refused with SPEC's text before anything
 * else is done with the send (no stripping, no order lookup, no file stored after it): the refusal costs
 * one JSON parse, and says nothing about the order. Any other problem keeps its place after the order check.
 */
export const refuseOversizedMessage = (raw: string | undefined): void => {
  // A JSON text no longer than the cap cannot hold a longer string: nothing to parse.
  if (raw === undefined || raw.length <= MESSAGE_BODY_RAW_MAX_LENGTH) return;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return;
  }
  if (bodyOverRawCap(json)) throw tooLong();
};

/** The parsed `message` field: exactly one of body, sticker, emoji (CONTRACT "Chat"), HTML stripped (SPEC §5). */
const parseContent = (raw: string | undefined, hasFiles: boolean): { body: string; sticker: number | null; emoji: string | null } => {
  let json: unknown;
  try {
    json = JSON.parse(raw ?? (hasFiles ? '{"body":""}' : ''));
  } catch {
    throw new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.invalidMessage, { message: [CHAT_MESSAGE.invalidMessage] });
  }
  if (bodyOverRawCap(json)) throw tooLong();
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

export interface ChatSendDeps {
  repo: ChatRepo;
  files: Pick<FilesService, 'storeMessengerFile' | 'chargeUploads' | 'discard'>;
  bus: ChatBus;
  clock: Clock;
  /** keeps a message just stored, so this instance's wake-up need not read it back */
  remember: (message: ChatMessage) => void;
}

/**
 * A send's steps (ADR 0047, 0063, 0066): the order check before a form's files, the attachments, and
 * the message stored (with files on its own, without files with the other sends of its turn) and
 * announced to every instance. Part of `createChatService`.
 */
export const createChatSendService = ({ repo, files, bus, clock, remember }: ChatSendDeps) => {
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
  const loadOne = async (id: number, customerId: number | null): Promise<ChatMessage> => {
    const [stored] = await repo.byIds({ ids: [id], customerId });
    if (!stored) throw notFound();
    return toWireMessage(stored);
  };

  /** A message just stored is answered and wakes every instance; one stored before under the same client id is answered again. */
  const announce = async (actor: Actor, order: ChatOrder, inserted: InsertedMessage): Promise<ChatMessage> => {
    if (!inserted.created) return loadOne(inserted.id, order.customerId);
    // ADR 0095: a writer's message is read back, for the writer's display name it carries (a writer's
    // sends are few; the customer's and support's keep the stored copy).
    const wire = inserted.stored && !isWriter(actor) ? toWireMessage(inserted.stored) : await loadOne(inserted.id, order.customerId);
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

  const sending = {
    /**
     * Before the body is read: the order (404 when not the actor's), and the message already stored under
     * this Idempotency-Key by this sender, if any (the answer to a retry; nothing is read or stored).
     */
    prepareSend: async ({ actor, orderId, clientId }: { actor: Actor; orderId: number; clientId: string | undefined }) => {
      const validClientId = clientId !== undefined && isValidClientId(clientId) ? clientId : null;
      // One read: the order (another customer's, or a writer's unassigned one, is a 404) and the retry's answer.
      const target = await loadSendTarget({
        orderId,
        customerId: isCustomer(actor) ? actor.userId : null,
        writerId: isCustomer(actor) || isSupport(actor) ? null : actor.userId,
        senderId: actor.userId,
        clientId: validClientId,
      });
      if (!target) throw notFound();
      if (clientId !== undefined && validClientId === null) throw new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.invalidClientId);
      const { order, existingId } = target;
      return { order, existing: existingId === null ? null : await loadOne(existingId, order.customerId) };
    },

    /**
     * One attachment, streamed through the files module's upload use case (ADR 0073; SPEC §5: 15 MB,
     * types); a customer's counts against their quota together with the message's `earlier` attachments.
     */
    storeAttachment: async ({
      actor,
      file,
      earlier,
    }: {
      actor: Actor;
      file: IncomingFile;
      earlier: readonly NewMessageFile[];
    }): Promise<NewMessageFile> => {
      if (earlier.length >= MESSAGE_FILES_MAX)
        throw new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.tooManyFiles, { files: [CHAT_MESSAGE.tooManyFiles] });
      const stored = await files.storeMessengerFile({
        quotaOf: isCustomer(actor) ? actor.userId : null,
        pendingBytes: earlier.reduce((sum, f) => sum + f.size, 0),
        file,
      });
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
      actor: Actor;
      order: ChatOrder;
      direction: string | undefined;
      message: string | undefined;
      files: NewMessageFile[];
      clientId: string | undefined;
    }): Promise<ChatMessage> => {
      const direction = directionOf(actor, rawDirection);
      const content = parseContent(message, stored.length > 0);
      const now = clock.now();
      // ADR 0073: a customer's attachments are charged to their quota in the transaction that records them.
      const quotaOf = isCustomer(actor) ? actor.userId : null;
      const bytes = stored.reduce((sum, f) => sum + f.size, 0);
      const charge = stored.length > 0 ? (tx: Queryable) => files.chargeUploads(tx, { quotaOf, bytes }) : undefined;
      const inserted = await repo.insert(
        {
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
        },
        charge,
      );
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
      actor: Actor;
      orderId: number;
      direction: string | undefined;
      message: string | undefined;
      clientId: string | undefined;
    }): Promise<ChatMessage> => {
      const alone = async (): Promise<ChatMessage> => {
        const { order, existing } = await sending.prepareSend({ actor, orderId, clientId });
        return existing ?? sending.send({ actor, order, direction: rawDirection, message, files: [], clientId });
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
          orderId,
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
      if (!inserted) throw notFound();
      return announce(actor, inserted.order, inserted);
    },
  };
  return sending;
};
