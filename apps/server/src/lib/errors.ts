import { DomainError, ERROR_CODE } from '@app/domain';

/**
 * CONTRACT "Errors and access": the one 404. A row that is not the caller's, one that does not exist and a
 * path id that is not an id at all answer alike, so an answer never tells which. Another message only where
 * the contract names one (`notFound(SITE_NOT_FOUND)`).
 */
export const notFound = (message = 'Not found'): DomainError => new DomainError(ERROR_CODE.notFound, message);
