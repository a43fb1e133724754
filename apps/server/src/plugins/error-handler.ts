import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError, HTTP_STATUS_BY_ERROR_CODE, type ErrorBody, type FieldErrors } from '@app/domain';
import { isDatabaseUnavailable } from '../db/client';

/** ADR 0074: what a request hears while the database cannot be reached; it may simply try again. */
export const SERVICE_UNAVAILABLE_MESSAGE = 'The service is briefly unavailable. Please try again in a moment.';
/** Seconds a client waits before trying again (Retry-After of a 503). */
const RETRY_AFTER_SECONDS = 5;

/**
 * The one error handler (DESIGN rule 6): DomainError codes map to CONTRACT statuses and bodies;
 * request validation fails with 422 and the field errors; a database that cannot be reached (down,
 * restarting, hung: ADR 0074) is a 503 with Retry-After, logged as one warn line without a stack;
 * anything else is a 500 with no stack trace.
 */
export const registerErrorHandler = (app: FastifyInstance): void => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof DomainError) {
      const body: ErrorBody = { message: error.message };
      if (error.errors) body.errors = error.errors;
      return reply.status(HTTP_STATUS_BY_ERROR_CODE[error.code]).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldErrors = {};
      for (const issue of error.validation) {
        const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || '_';
        (errors[field] ??= []).push(issue.message ?? 'Invalid value');
      }
      return reply.status(422).send({ message: 'Invalid request', errors } satisfies ErrorBody);
    }
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return reply.status(429).send({ message: 'Too many requests. Please try again later.' } satisfies ErrorBody);
    }
    if (status >= 400 && status < 500) {
      const message = status === 413 ? 'Payload too large' : error.message;
      return reply.status(status).send({ message } satisfies ErrorBody);
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ reason: error.message }, 'database unavailable: answered 503');
      return reply
        .status(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .send({ message: SERVICE_UNAVAILABLE_MESSAGE } satisfies ErrorBody);
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ message: 'Internal Server Error' } satisfies ErrorBody);
  });
};
