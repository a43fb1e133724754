import { hkdfSync, randomBytes } from 'node:crypto';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { APP_PATH } from '@app/domain';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { AppContext } from './context';
import { storedAppSecret } from './db/app-secrets';
import type { Db } from './db/client';
import { systemClock, type Clock } from './lib/clock';
import { createDownloadTickets } from './lib/download-tickets';
import { createAccessTokens, withLiveness } from './lib/jwt';
import { openRedis } from './lib/redis';
import { checkPathIds } from './lib/route-schemas';
import { adminModule } from './modules/admin';
import { accessLivenessFor, authModule } from './modules/auth';
import { catalogueModule } from './modules/catalogue';
import { chatModule, servesChat, type ChatHandle } from './modules/chat';
import { customersModule } from './modules/customers';
import { deliveryModule } from './modules/delivery';
import { disputesModule } from './modules/disputes';
import { discountsModule } from './modules/discounts';
import { createUploadRate, filesModule, openFileStorage } from './modules/files';
import { healthModule } from './modules/health';
import { loyaltyModule } from './modules/loyalty';
import { createMailing, mailRoutes, type MailDelivery, type Mailer } from './modules/mail';
import { notificationsModule, onNotified, type NotificationJobs } from './modules/notifications';
import { ordersModule } from './modules/orders';
import { paymentsModule } from './modules/payments';
import { pricingModule } from './modules/pricing';
import { reviewsModule } from './modules/reviews';
import { revisionsModule } from './modules/revisions';
import { staffModule } from './modules/staff';
import { documentPdfOfPayment, transactionsModule } from './modules/transactions';
import { authPlugin } from './plugins/auth';
import { isLoopback, trustProxyOption } from './plugins/client-ip';
import { registerCompression } from './plugins/compression';
import { registerErrorHandler } from './plugins/error-handler';
import { registerFormBodies, registerMultipart } from './plugins/form-body';
import { registerLegalPages } from './plugins/legal-pages';
import { registerMetrics } from './plugins/metrics';
import { registerOpenApi } from './plugins/openapi';
import { registerRateLimit } from './plugins/rate-limit';
import { registerSecurityHeaders } from './plugins/security';
import { createPageRenderer } from './plugins/server-render';
import { registerWebStatic } from './plugins/web-static';
import { buildServices } from './services';

export interface BuildAppOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  /** Tests pass their own; otherwise created from config (SMTP or outbox). */
  mailer?: Mailer;
  /** Serve the built web app (off in API tests). */
  serveWeb?: boolean;
  /** Where log lines go instead of stdout (tests read the start-up lines). */
  logStream?: { write(line: string): void };
  /** Tests and benches: the chat module's service, hub and mail job once the app is ready. */
  onChatReady?: (handle: ChatHandle) => void;
  /** Tests: the SMTP delivery job (SMTP_URL set), to run by hand. */
  onMailReady?: (delivery: MailDelivery) => void;
  /** Tests: the notifications job (ADR 0088), to run by hand. */
  onNotificationJobs?: (jobs: NotificationJobs) => void;
}

const JWT_SECRET_NAME = 'jwt_access_secret';

/** JWT_SECRET, or one generated on first start and kept in the database so every instance shares it. */
const resolveJwtSecret = async (config: Config, db: Db): Promise<string> => {
  if (config.jwtSecret) return config.jwtSecret;
  return storedAppSecret(db, JWT_SECRET_NAME, () => randomBytes(48).toString('base64url'));
};

/**
 * Tokens travel in URLs: the socket's access token, the pages the mails link to (`?magicLink=`,
 * `?confirmEmail=`, `?token=` of a reset, `?deleteAccount=` of a deletion, ADR 0070) and the magic-link
 * sign-in's path, a download's `?ticket=` (ADR 0080). None reaches a log line (ADR 0039).
 */
const redactUrl = (url: string): string =>
  url
    .replace(/([?&;](?:accessToken|refreshToken|token|ticket|magicLink|confirmEmail|deleteAccount)=)[^&#]*/gi, '$1[redacted]')
    .replace(/(\/magic_link\/)[^/?#]+/gi, '$1[redacted]');

export const buildApp = async (opts: BuildAppOptions): Promise<FastifyInstance> => {
  const { config, db } = opts;
  const clock = opts.clock ?? systemClock;
  const app = Fastify({
    // LOG_LEVEL=silent is no logger at all: a pino logger that drops every line still costs each request
    // a child logger, two timestamps and two response listeners, 5 % of a price calculation (ADR 0026).
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            ...(opts.logStream ? { stream: opts.logStream } : {}),
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            serializers: {
              req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
            },
          },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // ioredis is loaded only with REDIS_URL (ADR 0058); an outage degrades, and heals, by itself (ADR 0074).
  const redis = config.redisUrl ? await openRedis(config.redisUrl, app.log) : undefined;
  // ADR 0074: every mail is queued in the database; with SMTP_URL this instance's job sends the queue.
  const mailing = createMailing({ config, db, clock, log: app.log });
  const mailer = opts.mailer ?? mailing.mailer;
  app.addHook('onReady', async () => {
    mailing.start();
    if (mailing.delivery) opts.onMailReady?.(mailing.delivery);
  });
  app.addHook('onClose', async () => mailing.stop());
  // ADR 0053: every verified access token is checked against its account and session (deletion, ended sessions).
  const secret = await resolveJwtSecret(config, db);
  const tokens = withLiveness(createAccessTokens(secret, clock), accessLivenessFor(db));
  // ADR 0080: one-minute links for the browser's download manager, signed with the same shared secret.
  const tickets = createDownloadTickets(secret, clock);
  // ADR 0080: the folder or the bucket; a bucket that refuses its key stops the start here.
  const fileStorage = await openFileStorage(config);
  const ctx: AppContext = {
    config,
    db,
    clock,
    mailer,
    tokens,
    redis,
    log: app.log,
    origin: config.publicOrigin ?? `http://localhost:${config.port}`,
    twoFactorKey: Buffer.from(hkdfSync('sha256', secret, 'two-factor', 'staff-totp-secret-v1', 32)),
  };

  // The composition root (ADR 0054): each shared service built once, handed below to the modules that use it.
  const services = buildServices(ctx, { fileStorage });

  registerErrorHandler(app);
  // ADR 0078: a path id that is not an id answers 404 after the route's guard; services get numbers.
  checkPathIds(app);
  const metricsOn = config.metrics.port !== undefined || config.metrics.token !== undefined;
  app.decorate('metrics', metricsOn ? await registerMetrics(app, { db, token: config.metrics.token }) : undefined);
  registerSecurityHeaders(app, { hsts: config.env === 'production' });
  await registerFormBodies(app);
  await registerRateLimit(app, redis);
  // ADR 0073: one upload counter for every upload path (order and revision files, deliveries, chat attachments).
  const uploadRate = createUploadRate(app, config.quotas.uploadsPerHour);
  if (config.apiDocs) await registerOpenApi(app);
  await app.register(authPlugin, { tokens, tickets });

  await app.register(healthModule, { ctx });
  // ADR 0048: `npm run chat` serves the chat alone.
  if (config.serverRole === 'chat') {
    await app.register(chatModule, {
      ctx,
      files: services.files,
      uploadRate,
      bus: services.chatBus,
      ...(opts.onChatReady ? { onReady: opts.onChatReady } : {}),
    });
    app.setNotFoundHandler(async (_request, reply) => reply.status(404).send({ message: 'Not found' }));
    app.addHook('onClose', async () => {
      await services.chatBus.close();
      mailer.close();
      if (redis) redis.disconnect();
    });
    return app;
  }
  // `PUT …/calcs` answers a few hundred bytes and is the hot route of ADR 0026: registered before the
  // compression, it carries none of its per-request hooks.
  await app.register(pricingModule, { priceTables: services.priceTables });
  // Every route registered from here on is compressed when its answer is 1 KiB or more (ADR 0040).
  await registerCompression(app);
  await app.register(catalogueModule, { catalogue: services.catalogue });
  await app.register(customersModule, { ctx, auth: services.auth, personalData: services.personalData });
  await app.register(ordersModule, {
    ctx,
    deps: {
      catalogue: services.catalogue.reader,
      priceTables: services.priceTables,
      discounts: services.discounts,
      files: services.files,
      reviews: services.reviews,
      money: services.orderEditMoney,
      moneyView: services.money,
      revisions: services.revisions,
      afterPayment: services.afterPayment,
    },
  });
  // The modules with multipart routes ("form" calls, file uploads), in their own scope: the multipart
  // plugin's per-request hooks stay off every other route (ADR 0026). A new multipart route goes here.
  await app.register(async (forms) => {
    await registerMultipart(forms);
    await forms.register(authModule, { service: services.auth, db, clock, twoFactor: services.twoFactor });
    await forms.register(staffModule, {
      ctx,
      deps: {
        files: services.files,
        revisions: services.revisions,
        money: services.money,
        attention: services.attention,
        manualPayments: services.manualPayments,
        afterPayment: services.afterPayment,
        uploadRate,
      },
    });
    await forms.register(discountsModule, { service: services.discounts });
    await forms.register(filesModule, { ctx, service: services.files, uploadRate });
    await forms.register(revisionsModule, { service: services.revisions, uploadRate });
    // ADR 0087: cancel and disputes (a dispute's form may carry files).
    await forms.register(disputesModule, { ctx, files: services.files, uploadRate });
  });
  // ADR 0048: the messenger under /chat, unless CHAT_BASE_URL puts it on a process of its own.
  if (servesChat(config))
    await app.register(chatModule, {
      ctx,
      files: services.files,
      uploadRate,
      bus: services.chatBus,
      ...(opts.onChatReady ? { onReady: opts.onChatReady } : {}),
    });
  await app.register(paymentsModule, { ctx, pricing: services.upgradePricing });
  await app.register(transactionsModule, { ctx });
  await app.register(reviewsModule, { service: services.reviews });
  await app.register(loyaltyModule, { ctx });
  // CONTRACT "Staff side", ADR 0090: the admin's prices, codes, staff accounts and the audit log.
  await app.register(adminModule, {
    ctx,
    deps: {
      auth: services.auth,
      twoFactor: services.twoFactor,
      catalogue: services.catalogue.reader,
      forgetPriceCaches: () => {
        services.priceTables.forget();
        services.firstAnswers.forget();
      },
    },
  });
  // ADR 0084: the journeys' test-only run of the job, to this machine only (not registered in production).
  await app.register(deliveryModule, {
    service: services.afterPayment,
    ctx,
    devAllow: (request) => isLoopback(request.socket.remoteAddress),
  });
  // ADR 0088: notifications; each one made (committed) wakes the user's sockets through the chat bus.
  await app.register(notificationsModule, {
    ctx,
    documentPdf: documentPdfOfPayment,
    devAllow: (request) => isLoopback(request.socket.remoteAddress),
    ...(opts.onNotificationJobs ? { onJobs: opts.onNotificationJobs } : {}),
    queued: () => mailing.delivery?.nudge(),
  });
  const stopNotified = onNotified((n) => services.chatBus.publish({ t: 'notification', ...n }));
  app.addHook('onClose', async () => stopNotified());
  // CONTRACT "Identity": the outbox only outside production, only to this machine (the socket's peer,
  // which X-Forwarded-For cannot change).
  if (config.env !== 'production')
    await app.register(mailRoutes, { repo: mailing.repo, allow: (request) => isLoopback(request.socket.remoteAddress) });

  registerLegalPages(app, { termsFile: config.termsFile, privacyFile: config.privacyFile });
  if (opts.serveWeb ?? true) {
    await registerWebStatic(app, {
      distDir: config.webDistDir,
      // The wizard's pages carry its first step's data; every page the site settings (ADR 0040). A failure
      // here only costs the page its head start: the app asks the API as it would without them.
      firstAnswers: async ({ route, request }) =>
        services
          .firstAnswers({
            origin: { protocol: request.protocol, host: request.host },
            wizard: route === APP_PATH.order || route === APP_PATH.home,
          })
          .catch((error: unknown) => {
            app.log.warn({ err: error }, 'first answers for the page could not be read');
            return {};
          }),
      renderPage: config.serverRender
        ? createPageRenderer({ entryFile: path.join(config.webDistDir, 'ssr', 'entry-server.js'), log: app.log })
        : undefined,
    });
  } else app.setNotFoundHandler(async (_request, reply) => reply.status(404).send({ message: 'Not found' }));

  app.addHook('onClose', async () => {
    await services.chatBus.close();
    mailer.close();
    if (redis) redis.disconnect();
  });
  return app;
};
