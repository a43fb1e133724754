import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { Config } from './config';
import type { AppContext } from './context';
import { storedAppSecret } from './db/app-secrets';
import type { Db } from './db/client';
import { systemClock, type Clock } from './lib/clock';
import { createAccessTokens } from './lib/jwt';
import { authModule } from './modules/auth';
import { catalogueModule } from './modules/catalogue';
import { customersModule } from './modules/customers';
import { discountsModule } from './modules/discounts';
import { filesModule } from './modules/files';
import { healthModule } from './modules/health';
import { createMailer, createMailRepo, mailRoutes, type Mailer } from './modules/mail';
import { ordersModule } from './modules/orders';
import { paymentsModule } from './modules/payments';
import { pricingModule } from './modules/pricing';
import { reviewsModule } from './modules/reviews';
import { staffModule } from './modules/staff';
import { transactionsModule } from './modules/transactions';
import { authPlugin } from './plugins/auth';
import { registerErrorHandler } from './plugins/error-handler';
import { registerFormBodies, registerMultipart } from './plugins/form-body';
import { registerOpenApi } from './plugins/openapi';
import { registerRateLimit } from './plugins/rate-limit';
import { registerSecurityHeaders } from './plugins/security';
import { registerWebStatic } from './plugins/web-static';

export interface BuildAppOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  /** Tests pass their own; otherwise created from config (SMTP or outbox). */
  mailer?: Mailer;
  /** Serve the built web app (off in API tests). */
  serveWeb?: boolean;
}

const JWT_SECRET_NAME = 'jwt_access_secret';

/** JWT_SECRET, or one generated on first start and kept in the database so every instance shares it. */
const resolveJwtSecret = async (config: Config, db: Db): Promise<string> => {
  if (config.jwtSecret) return config.jwtSecret;
  return storedAppSecret(db, JWT_SECRET_NAME, randomBytes(48).toString('base64url'));
};

/** Access tokens travel in the socket's query string: never let them reach a log line. */
const redactUrl = (url: string): string => url.replace(/([?&](?:accessToken|token|magicLink)=)[^&]*/gi, '$1[redacted]');

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
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            serializers: {
              req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
            },
          },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 2 }) : undefined;
  const mailRepo = createMailRepo(db);
  const mailer = opts.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, repo: mailRepo, log: app.log });
  const tokens = createAccessTokens(await resolveJwtSecret(config, db), clock);
  const ctx: AppContext = {
    config,
    db,
    clock,
    mailer,
    tokens,
    redis,
    log: app.log,
    origin: config.publicOrigin ?? `http://localhost:${config.port}`,
  };

  registerErrorHandler(app);
  registerSecurityHeaders(app);
  await registerFormBodies(app);
  await registerRateLimit(app, redis);
  await registerOpenApi(app);
  await app.register(authPlugin, { tokens });

  await app.register(healthModule, { ctx });
  await app.register(catalogueModule, { ctx });
  await app.register(customersModule, { ctx });
  await app.register(ordersModule, { ctx });
  await app.register(pricingModule, { ctx });
  // The modules with multipart routes ("form" calls, file uploads), in their own scope: the multipart
  // plugin's per-request hooks stay off every other route (ADR 0026). A new multipart route goes here.
  await app.register(async (forms) => {
    await registerMultipart(forms);
    await forms.register(authModule, { ctx });
    await forms.register(staffModule, { ctx });
    await forms.register(discountsModule, { ctx });
    await forms.register(filesModule, { ctx });
  });
  await app.register(paymentsModule, { ctx });
  await app.register(transactionsModule, { ctx });
  await app.register(reviewsModule, { ctx });
  if (config.env !== 'production') await app.register(mailRoutes, { repo: mailRepo });

  if (opts.serveWeb ?? true) await registerWebStatic(app, config.webDistDir);
  else app.setNotFoundHandler(async (_request, reply) => reply.status(404).send({ message: 'Not found' }));

  app.addHook('onClose', async () => {
    mailer.close();
    if (redis) redis.disconnect();
  });
  return app;
};
