import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cancelBodySchema,
  cancellationQuoteSchema,
  cancelResultSchema,
  DISPUTE_DESCRIPTION_MAX_LENGTH,
  DISPUTE_MAX_FILES,
  DISPUTE_MESSAGE,
  disputeListSchema,
  disputeResolutionBodySchema,
  disputeSchema,
  DomainError,
  ERROR_CODE,
  ORDER_FILE_MAX_BYTES,
  ROUTE_RATE_LIMITS,
  staffDisputeListSchema,
  staffDisputeQuerySchema,
} from '@app/domain';
import { currentActor } from '../../plugins/auth';
import { routeRateLimit } from '../../plugins/rate-limit';
import { bearer, errorResponses, idParams } from '../../lib/route-schemas';
import type { FilesService, UploadRate } from '../files';
import { checkDisputeFields, type DisputeFields, type DisputesService } from './disputes.service';

/** A few fields: the raw body is bounded before it is parsed (ADR 0067). */
const BODY_LIMIT = 64 * 1024;
/** A description of the longest raw length in the widest UTF-8 (4 bytes a character), and a little. */
const FIELD_MAX_BYTES = DISPUTE_DESCRIPTION_MAX_LENGTH * 4 * 4 + 1024;

const tooLong = () =>
  new DomainError(ERROR_CODE.validation, DISPUTE_MESSAGE.descriptionTooLong, { description: [DISPUTE_MESSAGE.descriptionTooLong] });

/**
 * CONTRACT "After payment" (ADR 0087): the customer's cancel (its quote and the cancel itself), disputes
 * (open, list), and support's queue and outcome. A dispute's files go through the one upload path (the
 * files module's `upload`, its checks, quota and rate), after its fields were checked.
 */
export const disputesRoutes: FastifyPluginAsyncZod<{ service: DisputesService; files: FilesService; uploadRate: UploadRate }> = async (
  app,
  { service, files, uploadRate },
) => {
  const customerLimit = routeRateLimit(app, 'cancel-disputes', ROUTE_RATE_LIMITS.afterPayment);
  const staffLimit = routeRateLimit(app, 'disputes-staff', ROUTE_RATE_LIMITS.afterPayment);

  app.get(
    '/api/en/orders/:id/cancellation',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['orders'],
        summary: 'What a cancel would give back now, under the cancel policy in settings, and where it goes',
        security: bearer,
        params: idParams,
        response: { 200: cancellationQuoteSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.quote({ customerId: currentActor(request).userId, orderId: request.params.id }),
  );

  app.post(
    '/api/en/orders/:id/cancellation',
    {
      preHandler: [app.requireCustomer, customerLimit],
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['orders'],
        summary: 'Cancels the order (8) and refunds what the policy gives back; once work has started, opens a dispute instead',
        security: bearer,
        params: idParams,
        body: cancelBodySchema,
        response: { 200: cancelResultSchema, ...errorResponses(401, 404, 409, 413, 422, 429) },
      },
    },
    async (request) => service.cancel({ actor: currentActor(request), orderId: request.params.id, reason: request.body.reason }),
  );

  app.get(
    '/api/en/orders/:id/disputes',
    {
      preHandler: app.requireCustomer,
      schema: {
        tags: ['orders'],
        summary: "The order's disputes, newest first, with support's outcome",
        security: bearer,
        params: idParams,
        response: { 200: disputeListSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => service.list({ customerId: currentActor(request).userId, orderId: request.params.id }),
  );

  app.post(
    '/api/en/orders/:id/disputes',
    {
      // ADR 0073: files or not, a dispute counts once on the one upload counter (it may carry files).
      preHandler: [app.requireCustomer, customerLimit, uploadRate],
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['orders'],
        summary: 'Opens a dispute (form: reason, description, optional files; reason and description first)',
        security: bearer,
        params: idParams,
        consumes: ['multipart/form-data', 'application/x-www-form-urlencoded', 'application/json'],
        response: { 200: disputeSchema, ...errorResponses(401, 404, 409, 413, 422, 429, 507) },
      },
    },
    async (request) => {
      const actor = currentActor(request);
      const orderId = request.params.id;
      // The order first: another customer's is 404, an unpaid or closed one 409, before a byte of the form is read.
      await service.assertCanOpen({ customerId: actor.userId, orderId });
      const { fields, fileIds } = await readDisputeForm(request, { files, customerId: actor.userId, orderId });
      return service.open({ actor, orderId, ...fields, fileIds });
    },
  );

  app.get(
    '/api/staff/disputes',
    {
      preHandler: app.requireStaff,
      schema: {
        tags: ['staff'],
        summary: 'Disputes for support: open ones by answer-by, resolved ones newest first (support only)',
        security: bearer,
        querystring: staffDisputeQuerySchema,
        response: { 200: staffDisputeListSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => service.staffList({ actor: currentActor(request), query: request.query }),
  );

  app.put(
    '/api/staff/disputes/:id',
    {
      preHandler: [app.requireStaff, staffLimit],
      bodyLimit: BODY_LIMIT,
      schema: {
        tags: ['staff'],
        summary:
          'Resolves a dispute with one outcome (extend the deadline, reassign, partial refund of an amount, full refund, no action) and a message',
        security: bearer,
        params: idParams,
        body: disputeResolutionBodySchema,
        response: { 200: disputeSchema, ...errorResponses(401, 403, 404, 409, 413, 422, 429) },
      },
    },
    async (request) => service.resolve({ actor: currentActor(request), disputeId: request.params.id, body: request.body }),
  );
};

/**
 * The dispute's form: urlencoded or JSON fields, or multipart with `reason` and `description` before any
 * `files` part. The fields are checked when the first file starts (or at the end), so a refused dispute
 * stores no file; each file then streams through the files module's one upload path.
 */
const readDisputeForm = async (
  request: FastifyRequest,
  { files, customerId, orderId }: { files: FilesService; customerId: number; orderId: number },
): Promise<{ fields: ReturnType<typeof checkDisputeFields>; fileIds: number[] }> => {
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
    return { fields: checkDisputeFields({ reason: text(body.reason), description: text(body.description) }), fileIds: [] };
  }
  if (Number(request.headers['content-length'] ?? 0) > DISPUTE_MAX_FILES * (ORDER_FILE_MAX_BYTES + 64 * 1024) + FIELD_MAX_BYTES)
    throw new DomainError(ERROR_CODE.tooLarge, DISPUTE_MESSAGE.tooManyFiles);
  const raw: Partial<DisputeFields> = {};
  let fields: ReturnType<typeof checkDisputeFields> | null = null;
  const fileIds: number[] = [];
  for await (const part of request.parts({
    limits: { fileSize: ORDER_FILE_MAX_BYTES, files: DISPUTE_MAX_FILES + 1, fields: 10, fieldSize: FIELD_MAX_BYTES },
  })) {
    if (part.type === 'field') {
      if (part.valueTruncated) throw tooLong();
      if (fields) throw new DomainError(ERROR_CODE.validation, DISPUTE_MESSAGE.filesAfterFields);
      if (part.fieldname === 'reason' || part.fieldname === 'description') raw[part.fieldname] = String(part.value);
      continue;
    }
    if (part.fieldname !== 'files') {
      part.file.resume();
      continue;
    }
    fields ??= checkDisputeFields(raw);
    if (fileIds.length >= DISPUTE_MAX_FILES)
      throw new DomainError(ERROR_CODE.validation, DISPUTE_MESSAGE.tooManyFiles, { files: [DISPUTE_MESSAGE.tooManyFiles] });
    const stored = await files.upload({
      customerId,
      orderId,
      file: { filename: part.filename, stream: part.file, truncated: () => part.file.truncated },
    });
    fileIds.push(stored.id);
  }
  return { fields: fields ?? checkDisputeFields(raw), fileIds };
};
