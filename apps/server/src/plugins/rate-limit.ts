import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { clientBucket } from './client-ip';
import { sharedOrLocalStore } from './rate-limit-store';
import { AUTH_MESSAGE, AUTH_RATE_LIMIT_PER_MINUTE, DomainError, ERROR_CODE, normalizeEmail, type RateLimit } from '@app/domain';

const WINDOW_MS = 60_000;

/**
 * Counters live in Redis when REDIS_URL is set, so several instances share them (DESIGN rule 7); while
 * Redis is away, in each instance's memory (ADR 0074).
 */
export const registerRateLimit = async (app: FastifyInstance, redis: Redis | undefined): Promise<void> => {
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { store: sharedOrLocalStore(redis, 'rl:') } : {}),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: 'Too many requests. Please try again later.',
      retryAfterMs: context.ttl,
    }),
  });
};

const emailOf = (request: FastifyRequest): string | null => {
  const body = request.body as Record<string, unknown> | undefined;
  const value = body?.email ?? body?.mail;
  return typeof value === 'string' && value.trim() ? normalizeEmail(value) : null;
};

/** One counter; `createRateLimit` because the plugin's `rateLimit()` handlers skip every one after the first on a route. */
type LimitHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

const limiter = (
  app: FastifyInstance,
  keyOf: (request: FastifyRequest) => string,
  { max, timeWindow }: { max: number; timeWindow: number } = { max: AUTH_RATE_LIMIT_PER_MINUTE, timeWindow: WINDOW_MS },
  message: string = AUTH_MESSAGE.tooManyRequests,
): LimitHook => {
  const check = app.createRateLimit({ max, timeWindow, keyGenerator: keyOf });
  return async (request, reply) => {
    const result = await check(request);
    if (result.isAllowed || !result.isExceeded) return;
    void reply.header('retry-after', result.ttlInSeconds);
    throw new DomainError(ERROR_CODE.rateLimited, message);
  };
};

/**
 * CONTRACT "Errors and access": each endpoint its own bucket, 10 a minute per IP and per email.
 * The client is who the trusted proxies say (TRUST_PROXY), an IPv6 client its /64 (ADR 0032).
 * The IP counter runs at `onRequest`, before any body is read (ADR 0032: a flood of large bodies costs
 * the server nothing past the limit); the email counter needs the body, so it runs at `preHandler`.
 * Spread into the route's options: `{ ...authRateLimit(app, 'sign-in'), schema }`.
 */
export const authRateLimit = (app: FastifyInstance, bucket: string): { onRequest: LimitHook; preHandler: LimitHook } => ({
  onRequest: limiter(app, (request) => `${bucket}:ip:${clientBucket(request.ip)}`),
  preHandler: limiter(app, (request) => `${bucket}:email:${emailOf(request) ?? `ip:${clientBucket(request.ip)}`}`),
});

/**
 * ADR 0032: `perHour` requests an hour per signed-in account (file uploads, new orders), in the same
 * store as every other counter (Redis when configured); past it 429 with Retry-After. Goes after the
 * guard in the route's `preHandler` list, which runs before a multipart body is read.
 */
export const accountRateLimit = (app: FastifyInstance, bucket: string, perHour: number): LimitHook =>
  limiter(app, (request) => `${bucket}:user:${request.user?.userId ?? `ip:${clientBucket(request.ip)}`}`, {
    max: perHour,
    timeWindow: 60 * WINDOW_MS,
  });

/**
 * ADR 0048: `max` requests per `windowMs` per signed-in account (chat sends: a burst and a minute), in the
 * shared store; past it 429 with Retry-After and `message`. Goes after the guard in `preHandler`.
 */
export const accountWindowRateLimit = (app: FastifyInstance, bucket: string, max: number, windowMs: number, message: string): LimitHook =>
  limiter(
    app,
    (request) => `${bucket}:user:${request.user?.userId ?? `ip:${clientBucket(request.ip)}`}`,
    { max, timeWindow: windowMs },
    message,
  );

/**
 * ADR 0073: a route that costs real work, `limit` (ROUTE_RATE_LIMITS) per signed-in account, or per client
 * address on a route without one; past it 429 "Too many requests. Please try again later." with
 * Retry-After. After the guard in `preHandler`. One hook is one counter: a hook shared by several routes
 * counts them together.
 */
export const routeRateLimit = (app: FastifyInstance, bucket: string, limit: RateLimit): LimitHook =>
  accountWindowRateLimit(app, bucket, limit.max, limit.windowMs, AUTH_MESSAGE.tooManyRequests);

/**
 * ADR 0073: `limit` per thing a route without an account works on (`keyOf`: the order a checkout starts
 * for, the payment a return captures), whoever asks; like `routeRateLimit` otherwise. After validation
 * (`preHandler`), so the key is a validated parameter.
 */
export const keyedRateLimit = (
  app: FastifyInstance,
  bucket: string,
  keyOf: (request: FastifyRequest) => string,
  limit: RateLimit,
): LimitHook => limiter(app, (request) => `${bucket}:${keyOf(request)}`, { max: limit.max, timeWindow: limit.windowMs });
