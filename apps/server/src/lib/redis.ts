import type { Redis, RedisOptions } from 'ioredis';
import type { Logger } from './logger';

/**
 * ADR 0074: a command never waits for a Redis that is away. Without the offline queue a command fails at
 * once while the connection is down (the callers fall back: per-instance rate limits, local fan-out);
 * a connected Redis that does not answer (frozen, its network gone) fails a command after
 * COMMAND_TIMEOUT_MS. Reconnection goes on for ever, at most RECONNECT_MAX_MS apart, so the app heals by
 * itself when Redis returns.
 */
const COMMAND_TIMEOUT_MS = 1_000;
const RECONNECT_MAX_MS = 2_000;
/** How long a start waits for Redis before it goes on without it (and logs so, once). */
const START_WAIT_MS = 2_000;

const REDIS_OPTIONS: RedisOptions = {
  lazyConnect: false,
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: COMMAND_TIMEOUT_MS,
  retryStrategy: (times) => Math.min(times * 100, RECONNECT_MAX_MS),
};

/** The log lines of an outage: one when Redis goes away, one when it is back; never one per request. */
export const REDIS_DOWN_MESSAGE =
  'Redis unavailable: chat wake-ups stay on this instance and rate limits count per instance until it returns';
export const REDIS_BACK_MESSAGE = 'Redis is back: chat wake-ups and rate limits are shared across instances again';

/**
 * Reports the connection's state changes, once each: the first error of an outage at warn, the return
 * at info. ioredis emits an error at every failed reconnection (and prints each one to the console when
 * nobody listens); they are all the same outage.
 */
const watch = (redis: Redis, log: Logger): { wentDown(reason: string): void } => {
  let down = false;
  const wentDown = (reason: string): void => {
    if (down) return;
    down = true;
    log.warn({ reason }, REDIS_DOWN_MESSAGE);
  };
  redis.on('error', (error: Error) => wentDown(error.message));
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log.info({}, REDIS_BACK_MESSAGE);
  });
  return { wentDown };
};

/**
 * The app's Redis connection (REDIS_URL; ioredis is loaded only then, ADR 0058): watched, and waited for
 * at start up to START_WAIT_MS, so the first requests already share their counters; a Redis that is down
 * at start is an outage like any other (the app starts, and heals when it comes).
 */
export const openRedis = async (url: string, log: Logger): Promise<Redis> => {
  const { Redis: RedisClient } = await import('ioredis');
  const redis = new RedisClient(url, REDIS_OPTIONS);
  const watcher = watch(redis, log);
  let timer: NodeJS.Timeout | undefined;
  await new Promise<void>((resolve) => {
    const done = () => {
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    redis.once('ready', done);
    redis.once('error', done);
    timer = setTimeout(done, START_WAIT_MS);
  });
  clearTimeout(timer);
  if (redis.status !== 'ready') watcher.wentDown(`not connected within ${START_WAIT_MS} ms`);
  return redis;
};

/**
 * A second connection for subscriptions (a subscribed connection runs no other command): its commands
 * (the SUBSCRIBE) wait for the connection, and ioredis subscribes again after every reconnection. Its
 * errors are the same outage the app's connection reports, so they are not logged again.
 */
export const subscriberOf = (redis: Redis): Redis => {
  const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined });
  subscriber.on('error', () => undefined);
  return subscriber;
};
