import { createRequire } from 'node:module';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

type Callback = Parameters<FastifyRateLimitStore['incr']>[1];
type RouteOptions = Parameters<FastifyRateLimitStore['child']>[0];
/** The plugin's own stores (the Lua script of its Redis store, the LRU of its local one), with `read` as well. */
interface Store extends FastifyRateLimitStore {
  read(key: string, callback: Callback, timeWindow: number, max: number): void;
  child(routeOptions: RouteOptions): Store;
}
interface StoreParams {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  cache?: number;
}

const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => Store;
const LocalStore = require('@fastify/rate-limit/store/LocalStore') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => Store;

/**
 * ADR 0074: the counters live in Redis, shared by every instance (DESIGN rule 7); while Redis cannot
 * answer (the connection is not ready, or a command fails) each instance counts in its own memory, so
 * a limit still holds per instance and no request waits for Redis or fails because of it. The
 * connection's watcher logs the outage once; a counter that fell back here is not logged again.
 */
export const sharedOrLocalStore = (redis: Redis, nameSpace: string): FastifyRateLimitStoreCtor => {
  const pick = (shared: Store, local: Store, method: 'incr' | 'read'): Store['incr'] => {
    return (key, callback, timeWindow, max) => {
      if (redis.status !== 'ready') return local[method](key, callback, timeWindow, max);
      shared[method](
        key,
        (error, result) => (error ? local[method](key, callback, timeWindow, max) : callback(null, result)),
        timeWindow,
        max,
      );
    };
  };
  class SharedOrLocalStore implements Store {
    readonly incr: Store['incr'];
    readonly read: Store['read'];
    private readonly shared: Store;
    private readonly local: Store;
    constructor(params: StoreParams, parts?: { shared: Store; local: Store }) {
      this.shared =
        parts?.shared ?? new RedisStore(params.continueExceeding ?? false, params.exponentialBackoff ?? false, redis, nameSpace);
      this.local = parts?.local ?? new LocalStore(params.continueExceeding ?? false, params.exponentialBackoff ?? false, params.cache);
      this.incr = pick(this.shared, this.local, 'incr');
      this.read = pick(this.shared, this.local, 'read');
    }
    child(routeOptions: RouteOptions): Store {
      return new SharedOrLocalStore(routeOptions as StoreParams, {
        shared: this.shared.child(routeOptions),
        local: this.local.child(routeOptions),
      });
    }
  }
  return SharedOrLocalStore as unknown as FastifyRateLimitStoreCtor;
};
