import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CHAT_MESSAGE,
  CHAT_SEND_BURST,
  CHAT_SEND_PER_MINUTE,
  chatMessageSchema,
  type ChatMessage,
  DomainError,
  ERROR_CODE,
  FILE_MESSAGE,
  MESSAGE_FILE_MAX_BYTES,
  MESSAGE_FILES_MAX,
  messageListQuerySchema,
  messageListSchema,
  orderUnreadSchema,
  readAnswerSchema,
  readBodySchema,
  ROUTE_RATE_LIMITS,
  staffUnreadSummarySchema,
  unreadSummarySchema,
  writerOnlineSchema,
} from '@app/domain';
import { currentActor, currentUser } from '../../plugins/auth';
import { accountWindowRateLimit, routeRateLimit } from '../../plugins/rate-limit';
import { downloadQuerySchema, sendDownload, type UploadRate } from '../files';
import type { NewMessageFile } from './chat.repo';
import { refuseOversizedMessage } from './chat.send.service';
import type { ChatService } from './chat.service';
import { bearer, errorResponses, idParams, pathId } from '../../lib/route-schemas';

const fileParams = z.object({ id: pathId, fileId: pathId });
const FILE_FIELDS = new Set(['files', 'files[]', 'file']);
/** Room for the multipart envelope around the files a message may carry. */
const MAX_FORM_BYTES = MESSAGE_FILES_MAX * (MESSAGE_FILE_MAX_BYTES + 64 * 1024);

const idempotencyKey = (request: FastifyRequest): string | undefined => {
  const value = request.headers['idempotency-key'];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

/**
 * The message form (CONTRACT "Chat"): multipart `direction`, `message` (a JSON string) and `files`, each
 * file streamed to storage as its part arrives (never buffered); a JSON or urlencoded body without files
 * is taken too. A failure discards the files already stored.
 */
const readMessageForm = async (
  request: FastifyRequest,
  store: (
    file: { filename: string; stream: AsyncIterable<Uint8Array>; truncated: () => boolean },
    earlier: readonly NewMessageFile[],
  ) => Promise<NewMessageFile>,
  discard: (files: NewMessageFile[]) => Promise<void>,
): Promise<{ direction: string | undefined; message: string | undefined; files: NewMessageFile[] }> => {
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const text = (v: unknown): string | undefined =>
      typeof v === 'string' ? v : typeof v === 'number' ? String(v) : v !== undefined && v !== null ? JSON.stringify(v) : undefined;
    const message = text(body.message);
    refuseOversizedMessage(message);
    return { direction: text(body.direction), message, files: [] };
  }
  if (Number(request.headers['content-length'] ?? 0) > MAX_FORM_BYTES)
    throw new DomainError(ERROR_CODE.tooLarge, FILE_MESSAGE.messengerTooLarge);
  const fields: Record<string, string> = {};
  const files: NewMessageFile[] = [];
  try {
    for await (const part of request.parts({
      limits: { fileSize: MESSAGE_FILE_MAX_BYTES, files: MESSAGE_FILES_MAX + 1, fields: 10, fieldSize: 64 * 1024 },
    })) {
      if (part.type === 'field') {
        if (typeof part.value !== 'string') continue;
        // ADR 0067: an oversized body is refused as its field arrives, before the order check and any file after it.
        if (part.fieldname === 'message') refuseOversizedMessage(part.value);
        fields[part.fieldname] = part.value;
      } else if (FILE_FIELDS.has(part.fieldname) && part.filename) {
        files.push(await store({ filename: part.filename, stream: part.file, truncated: () => part.file.truncated }, files));
      } else part.file.resume();
    }
  } catch (error) {
    await discard(files);
    if (typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'FST_FILES_LIMIT') {
      throw new DomainError(ERROR_CODE.validation, CHAT_MESSAGE.tooManyFiles);
    }
    throw error;
  }
  return { direction: fields.direction, message: fields.message, files };
};

/** A retry's message was stored before: its form is not read further, and the stored message is the answer. */
class StoredBefore extends Error {
  constructor(readonly existing: ChatMessage) {
    super('stored before');
  }
}

/** CONTRACT "Chat" and "Staff side", paths exact under the chat base; the staff reads of ADR 0047. */
export const chatRoutes: FastifyPluginAsyncZod<{ service: ChatService; uploadRate: UploadRate }> = async (app, { service, uploadRate }) => {
  const sendLimits = [
    accountWindowRateLimit(app, 'chat-send-burst', CHAT_SEND_BURST.max, CHAT_SEND_BURST.windowMs, CHAT_MESSAGE.tooFast),
    accountWindowRateLimit(app, 'chat-send-minute', CHAT_SEND_PER_MINUTE, 60_000, CHAT_MESSAGE.tooFast),
  ];
  // ADR 0073: attachments streamed out, one counter per account for both sides.
  const downloadLimit = routeRateLimit(app, 'chat-file-download', ROUTE_RATE_LIMITS.fileDownload);

  const post = async (request: FastifyRequest, reply: FastifyReply, id: number): Promise<ChatMessage> => {
    const actor = currentActor(request);
    const clientId = idempotencyKey(request);
    // ADR 0066: the order (a 404, or the message a retry stored before) is checked before the first file
    // is stored; a message without files is checked by the statement that stores it.
    let target: ReturnType<typeof service.prepareSend> | undefined;
    const checked = () => (target ??= service.prepareSend({ actor, orderId: id, clientId }));
    let form: Awaited<ReturnType<typeof readMessageForm>>;
    try {
      form = await readMessageForm(
        request,
        async (file, earlier) => {
          const { existing } = await checked();
          if (existing) throw new StoredBefore(existing);
          // ADR 0073: each attachment is an upload, on the one upload counter of the sender's account.
          await uploadRate(request, reply);
          return service.storeAttachment({ actor, file, earlier });
        },
        (stored) => service.discard(stored),
      );
    } catch (error) {
      if (error instanceof StoredBefore) return error.existing;
      throw error;
    }
    if (target === undefined && form.files.length === 0)
      return service.sendWithoutFiles({ actor, orderId: id, direction: form.direction, message: form.message, clientId });
    // Attachments a message does not take (a retry's, or a refused message's) are not left behind.
    try {
      const { order, existing } = await checked();
      if (existing) {
        await service.discard(form.files);
        return existing;
      }
      return await service.send({ actor, order, direction: form.direction, message: form.message, files: form.files, clientId });
    } catch (error) {
      await service.discard(form.files);
      throw error;
    }
  };

  for (const side of ['customers', 'staff'] as const) {
    const guard = side === 'customers' ? app.requireCustomer : app.requireStaff;
    const who = side === 'customers' ? 'customer' : 'staff member';
    app.get(
      `/api/${side}/orders/:id/messages`,
      {
        preHandler: guard,
        schema: {
          tags: ['chat'],
          summary: `The order's messages as the ${who} sees them, oldest first: ?before=&limit= (older page) or ?after=&limit= (catch-up)`,
          security: bearer,
          params: idParams,
          querystring: messageListQuerySchema,
          response: { 200: messageListSchema, ...errorResponses(401, 404) },
        },
      },
      async (request) => service.history({ actor: currentActor(request), orderId: request.params.id, query: request.query }),
    );
    app.post(
      `/api/${side}/orders/:id/messages`,
      {
        preHandler: [guard, ...sendLimits],
        schema: {
          tags: ['chat'],
          summary:
            side === 'customers'
              ? 'Sends a message (multipart: direction 1 or 2, message {"body"}|{"sticker"}|{"emoji"}, files); Idempotency-Key: the same key returns the stored message'
              : 'Sends a staff message (the same form; a writer direction 3 on assigned orders only, support 6)',
          security: bearer,
          params: idParams,
          consumes: ['multipart/form-data', 'application/json'],
          response: { 200: chatMessageSchema, ...errorResponses(401, 404, 413, 422, 429, 507) },
        },
      },
      async (request, reply) => post(request, reply, request.params.id),
    );
    app.get(
      `/api/${side}/orders/:id/messages/unread`,
      {
        preHandler: guard,
        schema: {
          tags: ['chat'],
          summary: `Unread messages of the order for the ${who}, per chat`,
          security: bearer,
          params: idParams,
          response: { 200: orderUnreadSchema, ...errorResponses(401, 404) },
        },
      },
      async (request) => service.unread({ actor: currentActor(request), orderId: request.params.id }),
    );
    app.put(
      `/api/${side}/orders/:id/messages/read`,
      {
        preHandler: guard,
        schema: {
          tags: ['chat'],
          summary: 'Marks the other side\'s messages read: { messages: "1,2,3" } → { messages, unread }',
          security: bearer,
          params: idParams,
          body: readBodySchema,
          response: { 200: readAnswerSchema, ...errorResponses(401, 404, 422) },
        },
      },
      async (request) => service.read({ actor: currentActor(request), orderId: request.params.id, body: request.body }),
    );
    app.get(
      `/api/${side}/orders/:id/messages/files/:fileId`,
      {
        preHandler: [guard, downloadLimit],
        schema: {
          tags: ['chat'],
          summary: 'Downloads an attachment of a message (ADR 0080: `link=1` gives a download link, a store may answer 302)',
          security: bearer,
          params: fileParams,
          querystring: downloadQuerySchema,
        },
      },
      async (request, reply) =>
        sendDownload(
          request,
          reply,
          await service.file({ actor: currentActor(request), orderId: request.params.id, fileId: request.params.fileId }),
        ),
    );
  }

  app.get(
    '/api/customers/orders/unread',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['chat'],
        summary: 'Unread messages over all orders: { total, orders: [{ orderId, total }] }',
        security: bearer,
        response: { 200: unreadSummarySchema, ...errorResponses(401) },
      },
    },
    async (request) => service.unreadSummary({ customerId: currentUser(request).userId }),
  );
  app.get(
    '/api/staff/orders/unread',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['chat'],
        summary:
          "Orders with customer messages the staff member's side has not read (a writer: assigned orders' writer chats; support: support chats)",
        security: bearer,
        response: { 200: staffUnreadSummarySchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.staffUnreadSummary({ actor: currentActor(request) }),
  );
  app.get(
    '/api/customers/orders/:id/writer/online',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['chat'],
        summary: "Whether the order's writer has a staff socket open (polled every 60 s, SPEC §9)",
        security: bearer,
        params: idParams,
        response: { 200: writerOnlineSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.writerOnline({ customerId: currentUser(request).userId, orderId: request.params.id }),
  );
};
