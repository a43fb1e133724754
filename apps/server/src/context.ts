import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Clock } from './lib/clock';
import type { AccessTokens } from './lib/jwt';
import type { Mailer } from './modules/mail';

/** What every module is given (explicitly, in app.ts): infrastructure, never another module's internals. */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  mailer: Mailer;
  tokens: AccessTokens;
  redis: Redis | undefined;
  log: FastifyBaseLogger;
  /** The public origin used in links sent by mail, e.g. http://localhost:3000. */
  origin: string;
  /** ADR 0090: the key that encrypts staff two-factor secrets at rest (derived from the JWT secret, never stored). */
  twoFactorKey: Buffer;
}

export interface ModuleOptions {
  ctx: AppContext;
}
