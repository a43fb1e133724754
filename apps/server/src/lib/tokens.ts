import { createHash, randomBytes } from 'node:crypto';

/** Opaque random tokens (refresh, magic link, reset, confirm): 256 bits, URL-safe. */
export const randomToken = (): string => randomBytes(32).toString('base64url');

/** Stored form of an opaque token: SHA-256 is enough for 256-bit random values (no KDF needed). */
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
