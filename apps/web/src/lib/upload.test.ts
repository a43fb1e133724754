import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { orderFileSchema } from '@app/domain/files';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { FakeXhr, installFakeXhr } from '@/testing/fake-xhr';
import { ApiError } from './api-client';
import { postForm, UploadCanceledError } from './upload';

const STORED = { id: 7, name: 'notes.pdf', typeName: 'pdf', size: 3, remote: true };
const FILES_URL = '/api/en/orders/42/customers/files';

/** The request the upload sent, once it is on its way. */
const nextRequest = async (index = 0): Promise<FakeXhr> => {
  await vi.waitFor(() => expect(FakeXhr.sent.length).toBeGreaterThan(index));
  return FakeXhr.sent[index]!;
};

beforeEach(() => {
  installFakeXhr();
  signIn('access-1', 'refresh-1');
});
afterEach(() => vi.unstubAllGlobals());

describe('postForm', () => {
  it('sends the fields as multipart with the bearer and extra headers, reports progress, and answers the parsed body', async () => {
    const progress: number[] = [];
    const file = new File(['abc'], 'notes.pdf', { type: 'application/pdf' });
    const extra = [new File(['x'], 'a.txt'), new File(['y'], 'b.txt')];
    const done = postForm({
      url: FILES_URL,
      fields: { id_revision: '5', file, files: extra },
      schema: () => Promise.resolve(orderFileSchema),
      onProgress: (percent) => progress.push(percent),
      headers: { 'Idempotency-Key': 'client-1' },
    });
    const xhr = await nextRequest();
    expect(xhr.url).toBe(FILES_URL);
    expect(xhr.headers).toMatchObject({ Accept: 'application/json', Authorization: 'Bearer access-1', 'Idempotency-Key': 'client-1' });
    expect(xhr.body?.get('id_revision')).toBe('5');
    expect((xhr.body?.get('file') as File).name).toBe('notes.pdf');
    expect((xhr.body?.getAll('files') as File[]).map((f) => f.name)).toEqual(['a.txt', 'b.txt']);
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 3 });
    xhr.upload.onprogress?.({ lengthComputable: false, loaded: 2, total: 0 });
    xhr.answer(201, { ...STORED, unknownField: 'dropped by the schema' });
    await expect(done).resolves.toEqual(STORED);
    expect(progress).toEqual([33, 100]);
  });

  it("turns a refusal into the ApiError the UI shows: the server's message and field errors", async () => {
    const progress: number[] = [];
    const done = postForm({
      url: FILES_URL,
      fields: { file: new File(['x'], 'a.pdf') },
      schema: orderFileSchema,
      onProgress: (p) => progress.push(p),
    });
    (await nextRequest()).answer(422, { message: 'The given data was invalid.', errors: { file: ['Invalid file format'] } });
    const error = await done.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      serverMessage: 'The given data was invalid.',
      fieldErrors: { file: ['Invalid file format'] },
    });
    expect(progress).toEqual([]);
  });

  it('keeps no body for a status CONTRACT gives none (500), and says status 0 when the server cannot be reached', async () => {
    const failed = postForm({ url: FILES_URL, fields: {}, schema: orderFileSchema, onProgress: () => undefined });
    (await nextRequest()).answer(500, { message: 'stack trace' });
    await expect(failed).rejects.toMatchObject({ status: 500, body: undefined });

    const unreachable = postForm({ url: FILES_URL, fields: {}, schema: orderFileSchema, onProgress: () => undefined });
    (await nextRequest(1)).onerror?.();
    await expect(unreachable).rejects.toMatchObject({ status: 0 });
  });

  it('refuses an answer that does not fit the schema (502), or that is not JSON', async () => {
    const misfit = postForm({ url: FILES_URL, fields: {}, schema: orderFileSchema, onProgress: () => undefined });
    (await nextRequest()).answer(200, { id: 'seven' });
    await expect(misfit).rejects.toMatchObject({ status: 502 });

    const garbage = postForm({ url: FILES_URL, fields: {}, schema: orderFileSchema, onProgress: () => undefined });
    (await nextRequest(1)).answer(200, '<html>proxy error</html>');
    await expect(garbage).rejects.toMatchObject({ status: 502 });
  });

  it('cancels with UploadCanceledError when the signal fires, and sends nothing for a signal already fired', async () => {
    const controller = new AbortController();
    const canceled = postForm({
      url: FILES_URL,
      fields: {},
      schema: orderFileSchema,
      onProgress: () => undefined,
      signal: controller.signal,
    });
    const xhr = await nextRequest();
    controller.abort();
    await expect(canceled).rejects.toBeInstanceOf(UploadCanceledError);
    expect(xhr.aborted).toBe(true);

    await expect(
      postForm({ url: FILES_URL, fields: {}, schema: orderFileSchema, onProgress: () => undefined, signal: controller.signal }),
    ).rejects.toBeInstanceOf(UploadCanceledError);
    expect(FakeXhr.sent).toHaveLength(1);
  });

  it('renews the token once after a 401 and sends the form again with the new one', async () => {
    const refreshed: string[] = [];
    server.use(
      http.put('/api/en/auth/jwt/refresh', ({ request }) => {
        refreshed.push(request.headers.get('Authorization') ?? '');
        return HttpResponse.json({ accessToken: 'access-2', refreshToken: 'refresh-2' });
      }),
    );
    const done = postForm({
      url: FILES_URL,
      fields: { file: new File(['abc'], 'notes.pdf') },
      schema: orderFileSchema,
      onProgress: () => undefined,
    });
    (await nextRequest()).answer(401, { message: 'expired' });
    const again = await nextRequest(1);
    expect(again.headers.Authorization).toBe('Bearer access-2');
    expect((again.body?.get('file') as File).name).toBe('notes.pdf');
    again.answer(201, STORED);
    await expect(done).resolves.toEqual(STORED);
    expect(refreshed).toEqual(['Bearer refresh-1']);
  });
});
