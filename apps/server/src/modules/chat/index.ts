import type { FastifyPluginAsync } from 'fastify';
import { MESSAGE_DIRECTION, ROLE } from '@app/domain';
import type { Config } from '../../config';
import type { AppContext, ModuleOptions } from '../../context';
import { registerMultipart } from '../../plugins/form-body';
import type { FilesService, UploadRate } from '../files';
import { createMemoryBus, createRedisBus, type ChatBus, type SessionsEndedWake } from './chat.bus';
import { createHub, type Hub } from './chat.hub';
import { notificationEvent, notificationsUnread } from '../notifications';
import { createUnseenMailJob, notifyUnseen, type UnseenMailJob } from './chat.mail';
import { createChatRepo } from './chat.repo';
import { chatRoutes } from './chat.routes';
import { createChatService, type ChatService } from './chat.service';
import { chatSockets } from './chat.socket';
import { createChatSendService } from './chat.send.service';

export type { ChatBus, ChatService, Hub, UnseenMailJob };
/** The account deletion's erase step and the personal-data report's section (ADR 0052, 0077). */
export { eraseCustomerMessages, messagesReport } from './chat.personal-data.repo';

/**
 * The chat's fan-out (ADR 0048): in process, or Redis wake-ups with REDIS_URL. Built once by the
 * composition root (services.ts), even on a process that serves no chat: the auth module publishes
 * "sessions ended" through it so every instance's sockets close (ADR 0069). The app closes it.
 */
export const createChatBus = (ctx: Pick<AppContext, 'redis' | 'config' | 'log'>): ChatBus =>
  ctx.redis ? createRedisBus({ redis: ctx.redis, prefix: ctx.config.chat.redisPrefix, log: ctx.log }) : createMemoryBus();

/** ADR 0069: tells every instance's chat hub that sessions ended (ids only); the auth module's `onSessionsEnded`. */
export const sessionsEndedOn =
  (bus: ChatBus) =>
  (ended: Omit<SessionsEndedWake, 't'>): void =>
    bus.publish({ t: 'sessions-ended', ...ended });

/** Where the chat lives on this process: `/chat`, or the path of CHAT_BASE_URL on a chat-only process (CONTRACT "Serving"). */
export const chatPrefix = (config: Pick<Config, 'serverRole' | 'chatBaseUrl'>): string =>
  config.serverRole === 'chat' && config.chatBaseUrl ? new URL(config.chatBaseUrl).pathname.replace(/\/$/, '') : '/chat';

/** Whether this process serves the chat: a chat-only one does; the main one unless CHAT_BASE_URL names another origin. */
export const servesChat = (config: Pick<Config, 'serverRole' | 'chatBaseUrl' | 'publicOrigin'>): boolean => {
  if (config.serverRole === 'chat' || !config.chatBaseUrl) return true;
  return config.publicOrigin !== undefined && new URL(config.chatBaseUrl).origin === new URL(config.publicOrigin).origin;
};

/**
 * ADR 0084: a customer's text put into the order's writer chat by another module (a request for changes),
 * through the chat's one send path: the same checks and storage as the customer's own send, announced on
 * the bus so every instance's sockets and the staff console see it. The client id makes a retry store nothing.
 */
export const createWriterChatSend = (ctx: Pick<AppContext, 'db' | 'clock'>, { files, bus }: { files: FilesService; bus: ChatBus }) => {
  const sending = createChatSendService({ repo: createChatRepo(ctx.db), files, bus, clock: ctx.clock, remember: () => undefined });
  return async ({ customerId, orderId, body, clientId }: { customerId: number; orderId: number; body: string; clientId: string }) => {
    await sending.sendWithoutFiles({
      actor: { userId: customerId, role: ROLE.customer },
      orderId,
      direction: String(MESSAGE_DIRECTION.customerToWriter),
      message: JSON.stringify({ body }),
      clientId,
    });
  };
};

/** What tests and benches reach through the app (the job run by hand, the hub's socket count). */
export interface ChatHandle {
  service: ChatService;
  hub: Hub;
  mailJob: UnseenMailJob;
  bus: ChatBus;
}

/**
 * The messenger (ADR 0047, 0048): HTTP routes and sockets under the chat prefix, the fan-out
 * (in process, or Redis wake-ups with REDIS_URL), the unseen-message mail job. `files` is the app's one
 * files service from the composition root (ADR 0054), where chat attachments are stored.
 */
export const chatModule: FastifyPluginAsync<
  ModuleOptions & { files: FilesService; uploadRate: UploadRate; bus: ChatBus; onReady?: (handle: ChatHandle) => void }
> = async (app, { ctx, files, uploadRate, bus, onReady }) => {
  const service = createChatService({ repo: createChatRepo(ctx.db), files, bus, clock: ctx.clock });
  const hub = createHub({
    bus,
    reads: {
      ...service.hubReads,
      // ADR 0088: socket events 20 and 21 of the notifications module.
      notification: (input) => notificationEvent(ctx.db, input),
      notificationsUnread: (userId) => notificationsUnread(ctx.db, userId),
    },
    log: ctx.log,
    now: () => ctx.clock.now().getTime(),
    // ADR 0069: every sweep asks whether each socket's session is still live (the wake-ups' safety net).
    isLive: (session) => ctx.tokens.isLive(session),
  });
  const mailJob = createUnseenMailJob({
    db: ctx.db,
    clock: ctx.clock,
    log: ctx.log,
    tell: notifyUnseen(ctx.db, ctx.clock),
    intervalMs: ctx.config.chat.mailIntervalMs,
  });
  if (app.metrics) {
    // prom-client is loaded only when metrics are on (ADR 0058).
    const { Gauge } = await import('prom-client');
    new Gauge({
      name: 'chat_open_sockets',
      help: 'Chat sockets (customer and staff) open on this instance',
      registers: [app.metrics],
      collect() {
        this.set(hub.openSockets());
      },
    });
  }

  await app.register(
    async (scope) => {
      // A chat process on its own origin is called by the web app's origin (bearer tokens, no cookies).
      if (ctx.config.serverRole === 'chat') {
        const allowOrigin = ctx.config.publicOrigin ?? '*';
        scope.addHook('onRequest', async (request, reply) => {
          if (!request.headers.origin) return;
          void reply
            .header('access-control-allow-origin', allowOrigin)
            .header('vary', 'Origin')
            .header('access-control-allow-headers', 'authorization, content-type, idempotency-key')
            .header('access-control-allow-methods', 'GET, POST, PUT, OPTIONS')
            .header('access-control-max-age', '600');
        });
        scope.options('/*', { schema: { hide: true } }, async (_request, reply) => reply.status(204).send());
      }
      await registerMultipart(scope);
      await scope.register(chatRoutes, { service, uploadRate });
      await scope.register(chatSockets, { service, hub, tokens: ctx.tokens });
    },
    { prefix: chatPrefix(ctx.config) },
  );

  app.addHook('onReady', async () => {
    hub.start();
    mailJob.start();
    onReady?.({ service, hub, mailJob, bus });
  });
  // The bus is the app's (services.ts); app.ts closes it.
  app.addHook('onClose', async () => {
    hub.stop();
    await mailJob.stop();
  });
};
