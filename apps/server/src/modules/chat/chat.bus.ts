import { randomBytes } from 'node:crypto';
import type { ChatId } from '@app/domain';
import type { Redis } from 'ioredis';
import type { Logger } from '../../lib/logger';
import { subscriberOf } from '../../lib/redis';
import type { CustomerUnread } from './chat.model';
import type { Reader } from './chat.repo';

/**
 * A wake-up: what happened, by ids only (ADR 0048). The instance that holds the sockets reads the
 * content from PostgreSQL; a wake-up that never arrives is healed by the client's catch-up (`?after=`).
 * A staff message and a customer's read carry the customer's unread counts right after them, with
 * their version (ADR 0066: numbers, no content); without them the hub reads the counts.
 */
export type WakeUp =
  | {
      t: 'message';
      orderId: number;
      customerId: number;
      writerId: number | null;
      chat: ChatId;
      messageId: number;
      fromCustomer: boolean;
      unread?: CustomerUnread;
    }
  | {
      t: 'read';
      orderId: number;
      customerId: number;
      writerId: number | null;
      chat: ChatId;
      by: Reader;
      messageId: number;
      sequence: number;
      unread?: CustomerUnread;
    }
  | { t: 'typing'; orderId: number; customerId: number; writerId: number | null; chat: ChatId; fromCustomer: boolean; start: boolean }
  | { t: 'writer-online'; writerId: number }
  | NotificationWake
  | SessionsEndedWake;

/**
 * ADR 0088: a notification of a user was made (committed), or they read some (no `notificationId`); the
 * instances holding their sockets send event 20 `{ notification, unread }` or 21 `{ unread }`.
 */
export interface NotificationWake {
  t: 'notification';
  userId: number;
  notificationId?: number;
}

/**
 * ADR 0069: sessions of an account ended (devices list, logout, refresh-token reuse, password change or
 * reset, a mailbox proof, deletion), published by the auth module, the one place that ends sessions.
 * `sids` names the sessions (refresh-token families) ended; without it every session of the account
 * ended but `exceptSid` (the one that changed the password), if any. Ids only, never a token. Every
 * instance closes the sockets opened with those sessions with 4401.
 */
export interface SessionsEndedWake {
  t: 'sessions-ended';
  userId: number;
  sids?: readonly string[];
  exceptSid?: string | null;
}

/** How wake-ups reach every instance, and where writers' presence is kept. */
export interface ChatBus {
  readonly kind: 'memory' | 'redis';
  publish(wake: WakeUp): void;
  onWake(handler: (wake: WakeUp) => void): void;
  /** This instance holds `count` staff sockets of the writer (0: none); kept for other instances to see. */
  setWriterPresence(writerId: number, present: boolean): Promise<void>;
  /** Refreshes this instance's presence entries (they expire when an instance dies). */
  refreshPresence(writerIds: number[]): Promise<void>;
  isWriterOnline(writerId: number): Promise<boolean>;
  close(): Promise<void>;
}

/** One process: wake-ups are delivered in the next microtask; presence is this process's sockets. */
export const createMemoryBus = (): ChatBus => {
  const handlers: ((wake: WakeUp) => void)[] = [];
  const present = new Set<number>();
  return {
    kind: 'memory',
    publish: (wake) => {
      queueMicrotask(() => {
        for (const handler of handlers) handler(wake);
      });
    },
    onWake: (handler) => {
      handlers.push(handler);
    },
    setWriterPresence: async (writerId, isPresent) => {
      if (isPresent) present.add(writerId);
      else present.delete(writerId);
    },
    refreshPresence: async () => undefined,
    isWriterOnline: async (writerId) => present.has(writerId),
    close: async () => undefined,
  };
};

/** A presence entry outlives a missed refresh (every 30 s) and dies with its instance. */
const PRESENCE_TTL_MS = 90_000;

/**
 * Several instances (REDIS_URL): wake-ups go through one pub/sub channel, presence lives in a hash per
 * writer (`instance id → expiry`). `prefix` keeps deployments (and parallel test runs) apart.
 *
 * ADR 0074: this instance's own sockets never depend on Redis. A wake-up is delivered here at once and
 * published for the others, tagged with this instance's id (the copy that comes back is skipped); the
 * writers present here are known here. While Redis is away, wake-ups reach this instance's sockets only
 * (the others catch up with `?after=` when their clients reconnect), presence is this instance's, and
 * nothing waits or fails; the connection's watcher logs the outage once (lib/redis.ts). When Redis is
 * back, the subscription is renewed by ioredis and this instance's presence is written again at once.
 */
export const createRedisBus = ({ redis, prefix, log }: { redis: Redis; prefix: string; log: Logger }): ChatBus => {
  const instance = randomBytes(8).toString('hex');
  const channel = `${prefix}wake`;
  const presenceKey = (writerId: number) => `${prefix}presence:${writerId}`;
  const subscriber = subscriberOf(redis);
  const handlers: ((wake: WakeUp) => void)[] = [];
  const deliver = (wake: WakeUp): void => {
    for (const handler of handlers) handler(wake);
  };
  /** Writers with a staff socket on this instance. */
  const presentHere = new Set<number>();
  let closing = false;
  // While Redis is away the SUBSCRIBE waits for it (ioredis renews it after every reconnection).
  void subscriber.subscribe(channel).catch((error: unknown) => {
    if (!closing) log.error({ err: error }, 'chat: the Redis subscription failed');
  });
  subscriber.on('message', (from: string, payload: string) => {
    if (from !== channel) return;
    let tagged: WakeUp & { from?: string };
    try {
      tagged = JSON.parse(payload) as WakeUp & { from?: string };
    } catch {
      return;
    }
    const { from: origin, ...wake } = tagged;
    if (origin === instance) return;
    deliver(wake as WakeUp);
  });
  const writePresence = async (writerIds: readonly number[]): Promise<void> => {
    if (writerIds.length === 0) return;
    const pipeline = redis.pipeline();
    for (const writerId of writerIds) {
      pipeline.hset(presenceKey(writerId), instance, String(Date.now() + PRESENCE_TTL_MS));
      pipeline.pexpire(presenceKey(writerId), PRESENCE_TTL_MS);
    }
    await pipeline.exec();
  };
  // A Redis that restarted empty learns at once who is here (the 30 s refresh would, later).
  const rewritePresence = () => void writePresence([...presentHere]).catch(() => undefined);
  redis.on('ready', rewritePresence);
  return {
    kind: 'redis',
    publish: (wake) => {
      queueMicrotask(() => deliver(wake));
      // Away: the others miss this wake-up (their clients catch up); the outage is logged once, by the connection.
      redis.publish(channel, JSON.stringify({ ...wake, from: instance })).catch(() => undefined);
    },
    onWake: (handler) => {
      handlers.push(handler);
    },
    setWriterPresence: async (writerId, present) => {
      if (present) presentHere.add(writerId);
      else presentHere.delete(writerId);
      try {
        if (present) await writePresence([writerId]);
        else await redis.hdel(presenceKey(writerId), instance);
      } catch {
        // Redis away: this instance's presence stands; it is written again when Redis is back.
      }
    },
    refreshPresence: async (writerIds) => {
      await writePresence(writerIds).catch(() => undefined);
    },
    isWriterOnline: async (writerId) => {
      if (presentHere.has(writerId)) return true;
      try {
        const entries = await redis.hgetall(presenceKey(writerId));
        const now = Date.now();
        return Object.values(entries).some((expiry) => Number(expiry) > now);
      } catch {
        // Redis away: only this instance's sockets are known.
        return false;
      }
    },
    close: async () => {
      closing = true;
      redis.off('ready', rewritePresence);
      // Not awaited: a SUBSCRIBE still waiting for an absent Redis never settles, and a close must not hang on it.
      subscriber.disconnect();
    },
  };
};
