import { createHash } from 'node:crypto';
import { DomainError, ERROR_CODE, ORDER_EDIT_MESSAGE, type OrderBodyValues, type OrderRef } from '@app/domain';

/** The service's side of the Idempotency-Key (CONTRACT, ADR 0012): the key's form, the request's hash, a replay. */

/** CONTRACT leaves the key's form open: any printable ASCII, as the IETF draft allows. */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** 422 unless the key is 1 to 255 printable ASCII characters. */
export const checkIdempotencyKey = (key: string): void => {
  if (!IDEMPOTENCY_KEY_PATTERN.test(key))
    throw new DomainError(ERROR_CODE.validation, 'Idempotency-Key must be 1 to 255 printable characters');
};

/** Key order does not change the hash: the same body, however serialised, is the same request. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
        )
      : value;
export const requestHash = (category: string, body: OrderBodyValues): string =>
  createHash('sha256')
    .update(JSON.stringify({ category, body: canonical(body) }))
    .digest('hex');

/** The first order again when the body is the same; 422 when the key was used with another body. */
export const replay = (prior: { requestHash: string; id: number; uid: string }, hash: string): OrderRef => {
  if (prior.requestHash !== hash) throw new DomainError(ERROR_CODE.validation, ORDER_EDIT_MESSAGE.idempotencyMismatch);
  return { id: prior.id, uid: prior.uid };
};
