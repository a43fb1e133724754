import type { FastifyInstance, FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { DomainError, ERROR_CODE, TRANSPORT_MESSAGE } from '@app/domain';

/** SPEC §5 / §9: order and revision files are at most 100MB. STACK: the plugin's default is 1 MiB. */
export const MULTIPART_FILE_MAX_BYTES = 104_857_600;

/** urlencoded bodies everywhere: a content-type parser only, nothing runs for a request without one. */
export const registerFormBodies = async (app: FastifyInstance): Promise<void> => {
  await app.register(formbody, { bodyLimit: 64 * 1024 });
};

/**
 * multipart bodies, for the scope of the modules that take them. The plugin adds an onRequest and an
 * onResponse hook to every route of the scope it is registered in (cleaning files saved to disk, which
 * this app never does), so JSON-only routes stay outside it (ADR 0026). A route that calls
 * `request.isMultipart()`, `request.file()` or `multipartFields` must be registered inside it.
 */
export const registerMultipart = async (app: FastifyInstance): Promise<void> => {
  await app.register(multipart, {
    limits: { fileSize: MULTIPART_FILE_MAX_BYTES, files: 20, fields: 50, fieldSize: 64 * 1024 },
  });
};

/** A form call's text fields: a handful of short values (the longest is an email, 254 characters). */
const FORM_FIELD_LIMITS = { fields: 20, fieldSize: 16 * 1024, parts: 20 };

/**
 * CONTRACT: calls SPEC names "form" accept urlencoded and multipart bodies. For multipart, this
 * preValidation hook reads the text fields into request.body so that the route's schema validates them
 * like any other body. These routes take no files (ADR 0039): a file part answers 413 when it starts,
 * before its content is read.
 */
export const multipartFields = async (request: FastifyRequest): Promise<void> => {
  if (!request.isMultipart()) return;
  const fields: Record<string, string> = {};
  for await (const part of request.parts({ limits: FORM_FIELD_LIMITS })) {
    if (part.type === 'file') throw new DomainError(ERROR_CODE.tooLarge, TRANSPORT_MESSAGE.formTakesNoFiles);
    if (typeof part.value === 'string') fields[part.fieldname] = part.value;
  }
  request.body = fields;
};
