import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError, ERROR_CODE } from '@app/domain';
import { registerErrorHandler } from '../plugins/error-handler';
import { checkPathIds, errorResponses, idParams, pathId, readPathId } from './route-schemas';

const BAD_IDS = ['0', '-1', '1.5', 'abc', '1e3', '2147483648', '99999999999', '0x10', '1%20'];

describe('path ids', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', 2_147_483_647],
  ])('reads %s', (raw, id) => {
    expect(readPathId(raw)).toBe(id);
  });
  it.each([...BAD_IDS, ''])('reads %s as no id', (raw) => {
    expect(readPathId(raw)).toBeUndefined();
  });
});

describe('routes with path ids', () => {
  let app: FastifyInstance;
  const seen: unknown[] = [];
  let limited = 0;

  beforeAll(async () => {
    const server = Fastify().withTypeProvider<ZodTypeProvider>();
    server.setValidatorCompiler(validatorCompiler);
    server.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(server);
    checkPathIds(server);
    // A guard and a rate limit as the modules' routes have them: both run before the path id is judged.
    const guard = async (request: FastifyRequest) => {
      if (request.headers.authorization !== 'Bearer ok') throw new DomainError(ERROR_CODE.unauthorized, 'Access Token is missing');
    };
    const limit = async () => {
      limited += 1;
    };
    await server.register(async (scope) => {
      scope.withTypeProvider<ZodTypeProvider>().get(
        '/things/:id',
        {
          preHandler: [guard, limit],
          schema: { params: idParams, response: { 200: z.object({ id: z.number() }), ...errorResponses(401, 404) } },
        },
        async (request) => {
          seen.push(request.params.id);
          return { id: request.params.id };
        },
      );
      scope
        .withTypeProvider<ZodTypeProvider>()
        .get(
          '/things/:id/files/:fileId',
          { preHandler: guard, schema: { params: z.object({ id: pathId, fileId: pathId }) } },
          async (request) => ({ id: request.params.id, fileId: request.params.fileId }),
        );
      scope
        .withTypeProvider<ZodTypeProvider>()
        .get('/open/:id', { schema: { params: idParams } }, async (request) => ({ id: request.params.id }));
    });
    app = server;
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  const get = (url: string, token = true) => app.inject({ method: 'GET', url, headers: token ? { authorization: 'Bearer ok' } : {} });

  it('hands the handler the id as a number', async () => {
    const res = await get('/things/2147483647');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 2_147_483_647 });
    expect(seen.at(-1)).toBe(2_147_483_647);
    expect((await get('/things/7/files/8')).json()).toEqual({ id: 7, fileId: 8 });
  });

  it.each(BAD_IDS)(
    'answers %s with the 404 of an unknown id, after the guard and the rate limit, and the handler never runs',
    async (raw) => {
      const before = { seen: seen.length, limited };
      const res = await get(`/things/${raw}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found' });
      expect(seen.length).toBe(before.seen);
      expect(limited).toBe(before.limited + 1);
      expect((await get(`/things/5/files/${raw}`)).statusCode).toBe(404);
      expect((await get(`/things/${raw}/files/5`)).statusCode).toBe(404);
      expect((await get(`/open/${raw}`)).statusCode).toBe(404);
    },
  );

  it('answers 401 without a token whatever the id, as before any id is judged', async () => {
    expect((await get('/things/abc', false)).statusCode).toBe(401);
    expect((await get('/things/12', false)).statusCode).toBe(401);
  });

  it('refuses an id of more than 20 characters as too long (422), before any work', async () => {
    const before = limited;
    const res = await get(`/things/${'1'.repeat(21)}`);
    expect(res.statusCode).toBe(422);
    expect(limited).toBe(before);
  });
});
