import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@app/domain';
import { notFound } from './errors';

// The pieces every *.routes.ts schema repeats (ADR 0078): the bearer security, the error answers, path ids.

/** OpenAPI: the route takes the access token as `Authorization: Bearer …` (the scheme is declared in plugins/openapi.ts). */
export const bearer = [{ bearer: [] }];

/** The error answers a route may give, each with the domain's error body: `response: { 200: x, ...errorResponses(401, 404) }`. */
export const errorResponses = <S extends number>(...statuses: S[]): Record<S, typeof errorBodySchema> =>
  Object.fromEntries(statuses.map((status) => [status, errorBodySchema])) as Record<S, typeof errorBodySchema>;

/**
 * ADR 0081: the serializer of a route whose 200 answer the service builds whole, with exactly its schema's
 * fields in its schema's key order (a typed object literal per row): that answer is written with
 * JSON.stringify as it is, without zod's second pass over every field of every row (a staff queue page:
 * 20 to 100 rows of 21 fields). Its other answers (the errors) keep the app's zod serializer. The route's
 * test holds the answer to its schema: the body equals the schema's own serialisation of it.
 */
export const builtAnswerSerializer = (route: FastifyRouteSchemaDef<unknown>): ((data: unknown) => string) =>
  route.httpStatus === '200' ? (data) => JSON.stringify(data) : serializerCompiler(route as Parameters<typeof serializerCompiler>[0]);

const INT4_MAX = 2_147_483_647;
/** What a path id that is not an id reads as, until the check below answers 404 for it. */
const NOT_AN_ID = Number.NaN;

/** A row id in a path as the database keys it: a positive int4 written in 1 to 10 digits; undefined otherwise. */
export const readPathId = (raw: string): number | undefined => {
  const id = Number(raw);
  return /^\d{1,10}$/.test(raw) && id >= 1 && id <= INT4_MAX ? id : undefined;
};

/**
 * A path id (`/orders/{id}`, `…/files/{fileId}`): at most 20 characters (422 past that, as any input that
 * is too long, before any work), handed to the route as a number. One that is not a positive int4 answers
 * the same 404 as an id that is unknown or another customer's (CONTRACT "Errors and access": ids are not
 * confirmed), and at the same point: after the route's guard and rate limits, so a request without a token
 * still hears 401 (`checkPathIds` below).
 */
export const pathId = z
  .string()
  .max(20)
  .transform((raw) => readPathId(raw) ?? NOT_AN_ID);
/** The params of a route with one path id, `/…/:id`. */
export const idParams = z.object({ id: pathId });

const pathIdKeys = (params: unknown): string[] =>
  params instanceof z.ZodObject ? Object.entries(params.shape).flatMap(([key, field]) => (field === pathId ? [key] : [])) : [];

/**
 * Every route registered after this whose params hold a `pathId` gets one more preHandler, after its own
 * (the guard, the rate limits): a path id that is not an id is a 404 there, and the handler and the
 * services only ever see real ids. Routes without a path id are untouched (no per-request cost, ADR 0026).
 */
export const checkPathIds = (app: FastifyInstance): void => {
  app.addHook('onRoute', (route: RouteOptions) => {
    const keys = pathIdKeys(route.schema?.params);
    if (keys.length === 0) return;
    const check = async (request: FastifyRequest): Promise<void> => {
      const params = request.params as Record<string, unknown>;
      if (keys.some((key) => Number.isNaN(params[key]))) throw notFound();
    };
    const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [...own, check];
  });
};
