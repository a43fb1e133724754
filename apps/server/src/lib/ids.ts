import { DomainError, ERROR_CODE } from '@app/domain';

/**
 * A path id (`/orders/{id}`, `/files/{id}`…) as a positive int4. Anything else is a 404 like an unknown
 * id: CONTRACT "Errors and access" never confirms whether an id exists.
 */
export const parseId = (raw: string): number => {
  const id = Number(raw);
  if (!/^\d{1,10}$/.test(raw) || !Number.isSafeInteger(id) || id < 1 || id > 2_147_483_647) {
    throw new DomainError(ERROR_CODE.notFound, 'Not found');
  }
  return id;
};
