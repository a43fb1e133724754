import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { EARLY_REQUESTS_GLOBAL, INLINE_ANSWERS_ELEMENT_ID } from '@app/domain/routes';
import {
  ApiError,
  apiFetch,
  deferChecksAgain,
  deferredCheckCount,
  holdSessionEnd,
  onBadResponse,
  onSessionEnd,
  releaseDeferredChecks,
} from './api-client';
import { resetInlineAnswers } from './inline-answers';

const PING = '/api/en/test/ping';

/** A protected endpoint that accepts only `validToken` and counts what it saw. */
const protectedPing = (validToken: string, seen: string[] = []) =>
  http.get(PING, ({ request }) => {
    const auth = request.headers.get('Authorization') ?? '';
    seen.push(auth);
    return auth === `Bearer ${validToken}` ? HttpResponse.json({ ok: true }) : HttpResponse.json({ message: 'expired' }, { status: 401 });
  });

/** The refresh endpoint rotating `from` into the pair (`access-2`, `refresh-2`). */
const rotatingRefresh = (from: string, calls: string[] = []) =>
  http.put('/api/en/auth/jwt/refresh', async ({ request }) => {
    const auth = request.headers.get('Authorization') ?? '';
    calls.push(auth);
    // Let concurrent callers pile up before answering, as a real network would.
    await new Promise((resolve) => setTimeout(resolve, 20));
    return auth === `Bearer ${from}`
      ? HttpResponse.json({ accessToken: 'access-2', refreshToken: 'refresh-2' })
      : HttpResponse.json({ message: 'revoked' }, { status: 401 });
  });

let unsubscribe: (() => void) | undefined;
afterEach(() => unsubscribe?.());

const watchSessionEnd = () => {
  const ended = vi.fn();
  unsubscribe = onSessionEnd(ended);
  return ended;
};

describe('apiFetch bearer token', () => {
  it('sends the stored access token as a bearer', async () => {
    signIn('access-1', 'refresh-1');
    const seen: string[] = [];
    server.use(protectedPing('access-1', seen));
    await expect(apiFetch(PING)).resolves.toEqual({ ok: true });
    expect(seen).toEqual(['Bearer access-1']);
  });

  it('sends no Authorization header on a public call without a token', async () => {
    const seen: string[] = [];
    server.use(
      http.get(PING, ({ request }) => {
        seen.push(request.headers.get('Authorization') ?? 'none');
        return HttpResponse.json(1);
      }),
    );
    await expect(apiFetch(PING, { auth: false })).resolves.toBe(1);
    expect(seen).toEqual(['none']);
  });

  it('parses the answer with the schema it is given', async () => {
    signIn();
    server.use(protectedPing('access-1'));
    const schema = { parse: (data: unknown) => ({ parsed: data }) };
    await expect(apiFetch(PING, { schema })).resolves.toEqual({ parsed: { ok: true } });
  });
});

describe('apiFetch on 401', () => {
  it('refreshes with the refresh token as bearer, stores the rotated pair and repeats the request', async () => {
    signIn('access-1', 'refresh-1');
    const seen: string[] = [];
    const refreshCalls: string[] = [];
    server.use(protectedPing('access-2', seen), rotatingRefresh('refresh-1', refreshCalls));

    await expect(apiFetch(PING)).resolves.toEqual({ ok: true });
    expect(refreshCalls).toEqual(['Bearer refresh-1']);
    expect(seen).toEqual(['Bearer access-1', 'Bearer access-2']);
    expect(localStorage.getItem('accessToken')).toBe('access-2');
    expect(localStorage.getItem('refreshToken')).toBe('refresh-2');
  });

  it('lets concurrent 401s share one refresh, and both requests succeed', async () => {
    signIn('access-1', 'refresh-1');
    const refreshCalls: string[] = [];
    server.use(protectedPing('access-2'), rotatingRefresh('refresh-1', refreshCalls));

    const results = await Promise.all([apiFetch(PING), apiFetch(PING), apiFetch(PING)]);
    expect(results).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
    expect(refreshCalls).toHaveLength(1);
  });

  it('uses the access token another tab stored instead of refreshing with a stale refresh token', async () => {
    signIn('access-1', 'refresh-1');
    const refreshCalls: string[] = [];
    server.use(
      rotatingRefresh('refresh-1', refreshCalls),
      http.get(PING, ({ request }) => {
        const auth = request.headers.get('Authorization');
        if (auth === 'Bearer access-1') {
          // Another tab refreshes while this request is on the wire.
          localStorage.setItem('accessToken', 'access-other-tab');
          localStorage.setItem('refreshToken', 'refresh-other-tab');
          return HttpResponse.json({ message: 'expired' }, { status: 401 });
        }
        return auth === 'Bearer access-other-tab'
          ? HttpResponse.json({ ok: true })
          : HttpResponse.json({ message: 'expired' }, { status: 401 });
      }),
    );

    await expect(apiFetch(PING)).resolves.toEqual({ ok: true });
    expect(refreshCalls).toEqual([]);
    expect(localStorage.getItem('refreshToken')).toBe('refresh-other-tab');
  });

  /** A refresh whose first `lost` answers are lost on the network, then rotating into access-2; the count of asks. */
  const refreshLosingAnswers = (lost: number): (() => number) => {
    let attempts = 0;
    server.use(
      protectedPing('access-2'),
      http.put('/api/en/auth/jwt/refresh', () => {
        attempts += 1;
        return attempts <= lost ? HttpResponse.error() : HttpResponse.json({ accessToken: 'access-2', refreshToken: 'refresh-2' });
      }),
    );
    return () => attempts;
  };

  // ADR 0061: the server answers a lost rotation again, so the client asks once more.
  it('asks once more when the refresh answer is lost, and the request goes through', async () => {
    signIn('access-1', 'refresh-1');
    const ended = watchSessionEnd();
    const attempts = refreshLosingAnswers(1);

    await expect(apiFetch(PING)).resolves.toEqual({ ok: true });
    expect(attempts()).toBe(2);
    expect(ended).not.toHaveBeenCalled();
    expect(localStorage.getItem('refreshToken')).toBe('refresh-2');
  });

  it('keeps the tokens and fails the request when the network stays down through the second ask', async () => {
    signIn('access-1', 'refresh-1');
    const ended = watchSessionEnd();
    const attempts = refreshLosingAnswers(Infinity);

    await expect(apiFetch(PING)).rejects.toMatchObject({ status: 0 });
    expect(attempts()).toBe(2);
    expect(ended).not.toHaveBeenCalled();
    expect(localStorage.getItem('refreshToken')).toBe('refresh-1');
  });

  it('ends the session when the refresh is refused', async () => {
    signIn('access-1', 'refresh-old');
    const ended = watchSessionEnd();
    server.use(protectedPing('access-2'), rotatingRefresh('refresh-1'));

    await expect(apiFetch(PING)).rejects.toMatchObject({ status: 401, message: 'Bad response from server' });
    expect(ended).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('accessToken')).toBeNull();
    expect(localStorage.getItem('refreshToken')).toBeNull();
  });

  it('ends the session without calling refresh when there is no refresh token', async () => {
    localStorage.setItem('accessToken', 'access-1');
    const ended = watchSessionEnd();
    const refreshCalls: string[] = [];
    server.use(protectedPing('access-2'), rotatingRefresh('refresh-1', refreshCalls));

    await expect(apiFetch(PING)).rejects.toBeInstanceOf(ApiError);
    expect(refreshCalls).toEqual([]);
    expect(ended).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem('accessToken')).toBeNull();
  });

  it("throws 'Access Token is missing' and ends the session when an auth call has no token at all", async () => {
    const ended = watchSessionEnd();
    const seen: string[] = [];
    server.use(protectedPing('access-1', seen));

    await expect(apiFetch(PING)).rejects.toMatchObject({ message: 'Access Token is missing' });
    expect(seen).toEqual([]);
    expect(ended).toHaveBeenCalledTimes(1);
  });
});

describe('apiFetch error mapping', () => {
  it.each([400, 403, 404, 409, 413, 422, 429])('attaches the parsed body to a %i', async (status) => {
    signIn();
    const body = { message: 'Nope', errors: { email: ['Please provide valid Email'] } };
    server.use(http.get(PING, () => HttpResponse.json(body, { status })));

    const error = await apiFetch(PING).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ message: 'Bad response from server', status, body });
    expect((error as ApiError).serverMessage).toBe('Nope');
    expect((error as ApiError).fieldErrors).toEqual(body.errors);
  });

  it.each([405, 500, 502, 503])('attaches no body to a %i', async (status) => {
    signIn();
    server.use(http.get(PING, () => HttpResponse.json({ message: 'internal detail' }, { status })));

    await expect(apiFetch(PING)).rejects.toMatchObject({ message: 'Bad response from server', status, body: undefined });
  });

  it('maps a network failure to an ApiError with status 0 and keeps the tokens', async () => {
    signIn();
    server.use(http.get(PING, () => HttpResponse.error()));

    await expect(apiFetch(PING)).rejects.toMatchObject({ message: 'Bad response from server', status: 0 });
    expect(localStorage.getItem('accessToken')).toBe('access-1');
  });
});

describe('apiFetch bodies', () => {
  it('sends json with its content type and a form url-encoded', async () => {
    signIn();
    const received: string[] = [];
    server.use(
      http.post(PING, async ({ request }) => {
        received.push(`${request.headers.get('Content-Type') ?? ''} ${await request.text()}`);
        return HttpResponse.json(0);
      }),
    );
    await apiFetch(PING, { method: 'POST', json: { a: 1 } });
    await apiFetch(PING, { method: 'POST', form: { mail: 'a@b.co' }, auth: false });
    expect(received[0]).toBe('application/json {"a":1}');
    expect(received[1]).toMatch(/^application\/x-www-form-urlencoded.* mail=a%40b.co$/);
  });
});

describe("apiFetch check: 'after' (ADR 0028)", () => {
  const strictSchema = {
    parse: (data: unknown) => {
      if (typeof data !== 'object' || data === null || !('ok' in data) || data.ok !== true) throw new Error('ok must be true');
      return data as { ok: true };
    },
  };

  it('answers before the schema is loaded, and loads and checks it only once the first page is shown', async () => {
    deferChecksAgain();
    signIn();
    server.use(protectedPing('access-1'));
    const load = vi.fn(() => Promise.resolve(strictSchema));
    const bad = vi.fn();
    const stop = onBadResponse(bad);
    await expect(apiFetch(PING, { schema: load, check: 'after' })).resolves.toEqual({ ok: true });
    expect(load).not.toHaveBeenCalled();
    releaseDeferredChecks();
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(bad).not.toHaveBeenCalled();
    stop();
  });

  it("reports an answer that does not fit its schema as 'Bad response from server'", async () => {
    deferChecksAgain();
    server.use(http.get(PING, () => HttpResponse.json({ ok: 'no' })));
    const bad = vi.fn();
    const stop = onBadResponse(bad);
    await expect(apiFetch(PING, { auth: false, schema: () => Promise.resolve(strictSchema), check: 'after' })).resolves.toEqual({
      ok: 'no',
    });
    expect(bad).not.toHaveBeenCalled();
    releaseDeferredChecks();
    await vi.waitFor(() => expect(bad).toHaveBeenCalledTimes(1));
    const [error, path] = bad.mock.calls[0] as [ApiError, string];
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe('Bad response from server');
    expect(path).toBe(PING);
    // Once released, later answers are checked at once.
    await apiFetch(PING, { auth: false, schema: () => Promise.resolve(strictSchema), check: 'after' });
    await vi.waitFor(() => expect(bad).toHaveBeenCalledTimes(2));
    stop();
  });
});

describe('apiFetch options', () => {
  it('parses with a schema loaded lazily alongside the request', async () => {
    signIn();
    server.use(protectedPing('access-1'));
    const load = vi.fn(() => Promise.resolve({ parse: (data: unknown) => ({ lazy: data }) }));
    await expect(apiFetch(PING, { schema: load })).resolves.toEqual({ lazy: { ok: true } });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('sends an explicit bearer and does not refresh on its 401', async () => {
    signIn('access-1', 'refresh-1');
    const refreshCalls: string[] = [];
    const seen: string[] = [];
    server.use(protectedPing('nobody', seen), rotatingRefresh('refresh-1', refreshCalls));
    await expect(apiFetch(PING, { bearer: 'refresh-1' })).rejects.toMatchObject({ status: 401 });
    expect(seen).toEqual(['Bearer refresh-1']);
    expect(refreshCalls).toEqual([]);
  });
});

describe('answers the page brought (ADR 0040)', () => {
  const PUBLIC = '/api/en/test/public';
  const withPage = (answers: Record<string, unknown>) => {
    const script = document.createElement('script');
    script.type = 'application/json';
    script.id = INLINE_ANSWERS_ELEMENT_ID;
    script.textContent = JSON.stringify(answers);
    document.body.append(script);
    resetInlineAnswers();
    return () => {
      script.remove();
      resetInlineAnswers();
    };
  };

  it('a public GET reads its answer from the page once, through its schema; the next call asks the server', async () => {
    const asked: string[] = [];
    server.use(
      http.get(PUBLIC, () => {
        asked.push(PUBLIC);
        return HttpResponse.json({ from: 'server' });
      }),
    );
    const cleanup = withPage({ [PUBLIC]: { from: 'page' } });
    try {
      const parsed: string[] = [];
      const schema = { parse: (data: unknown) => (parsed.push(JSON.stringify(data)), data) };
      expect(await apiFetch(PUBLIC, { auth: false, schema })).toEqual({ from: 'page' });
      expect(parsed).toEqual(['{"from":"page"}']);
      expect(asked).toEqual([]);
      expect(await apiFetch(PUBLIC, { auth: false })).toEqual({ from: 'server' });
      expect(asked).toEqual([PUBLIC]);
    } finally {
      cleanup();
    }
  });

  it('a check deferred past the paint is not queued for the page’s answer, and still runs for the next answer, from the server (ADR 0065)', async () => {
    server.use(http.get(PUBLIC, () => HttpResponse.json({ wrong: true })));
    const cleanup = withPage({ [PUBLIC]: { wrong: true } });
    const bad = vi.fn();
    unsubscribe = onBadResponse(bad);
    const load = vi.fn(async () => ({
      parse: (d: unknown) => {
        if (typeof d === 'object' && d !== null && 'wrong' in d) throw new Error('mismatch');
        return d;
      },
    }));
    deferChecksAgain();
    try {
      const before = deferredCheckCount();
      expect(await apiFetch(PUBLIC, { auth: false, check: 'after', schema: load })).toEqual({ wrong: true });
      expect(deferredCheckCount()).toBe(before);
      expect(await apiFetch(PUBLIC, { auth: false, check: 'after', schema: load })).toEqual({ wrong: true });
      expect(deferredCheckCount()).toBe(before + 1);
      releaseDeferredChecks();
      await vi.waitFor(() => expect(bad).toHaveBeenCalledTimes(1));
      expect(load).toHaveBeenCalledTimes(1);
    } finally {
      deferChecksAgain();
      cleanup();
    }
  });

  it('calls with a token, and writes, never read the page', async () => {
    signIn('access-1', 'refresh-1');
    server.use(
      http.get(PUBLIC, () => HttpResponse.json({ from: 'server' })),
      http.put(PUBLIC, () => HttpResponse.json({ from: 'server-put' })),
    );
    const cleanup = withPage({ [PUBLIC]: { from: 'page' } });
    try {
      expect(await apiFetch(PUBLIC)).toEqual({ from: 'server' });
      expect(await apiFetch(PUBLIC, { method: 'PUT', auth: false, json: {} })).toEqual({ from: 'server-put' });
    } finally {
      cleanup();
    }
  });
});

describe('ADR 0070: a session end held while the app ends the session itself', () => {
  const endedCall = async () => {
    signIn('access-1', 'refresh-1');
    server.use(protectedPing('access-x'), rotatingRefresh('refresh-x'));
    await expect(apiFetch(PING)).rejects.toBeInstanceOf(ApiError);
  };

  it('clears the tokens but tells no one while held; released as left by the app, it stays untold', async () => {
    const ended = watchSessionEnd();
    const release = holdSessionEnd();
    await endedCall();
    expect(window.localStorage.getItem('accessToken')).toBeNull();
    expect(ended).not.toHaveBeenCalled();
    release(true);
    expect(ended).not.toHaveBeenCalled();
  });

  it('announces a held end when released as not left (the deletion failed), once', async () => {
    const ended = watchSessionEnd();
    const release = holdSessionEnd();
    await endedCall();
    release(false);
    release(false);
    expect(ended).toHaveBeenCalledTimes(1);
  });

  it('announces an end at once when nothing holds it', async () => {
    const ended = watchSessionEnd();
    holdSessionEnd()(false);
    await endedCall();
    expect(ended).toHaveBeenCalledTimes(1);
  });
});

describe('the answers a signed-in page asked for itself (ADR 0100)', () => {
  const early = (entries: Record<string, { token: string; at?: number; response: Promise<Response> }>) => {
    (window as unknown as Record<string, unknown>)[EARLY_REQUESTS_GLOBAL] = Object.fromEntries(
      Object.entries(entries).map(([path, entry]) => [path, { at: Date.now(), ...entry }]),
    );
  };
  afterEach(() => {
    delete (window as unknown as Record<string, unknown>)[EARLY_REQUESTS_GLOBAL];
  });

  it('takes the page’s response once, for the same path and token, then asks the server', async () => {
    signIn('access-1');
    const seen: string[] = [];
    server.use(protectedPing('access-1', seen));
    early({ [PING]: { token: 'access-1', response: Promise.resolve(Response.json({ early: true })) } });
    await expect(apiFetch(PING)).resolves.toEqual({ early: true });
    expect(seen).toEqual([]);
    await expect(apiFetch(PING)).resolves.toEqual({ ok: true });
    expect(seen).toEqual(['Bearer access-1']);
  });

  it('asks the server when the page asked with another token, too long ago, or its request failed', async () => {
    signIn('access-1');
    const seen: string[] = [];
    server.use(protectedPing('access-1', seen));
    early({ [PING]: { token: 'access-0', response: Promise.resolve(Response.json({ early: true })) } });
    await expect(apiFetch(PING)).resolves.toEqual({ ok: true });
    early({ [PING]: { token: 'access-1', at: Date.now() - 60_000, response: Promise.resolve(Response.json({ early: true })) } });
    await expect(apiFetch(PING)).resolves.toEqual({ ok: true });
    early({ [PING]: { token: 'access-1', response: Promise.reject(new TypeError('offline')) } });
    await expect(apiFetch(PING)).resolves.toEqual({ ok: true });
    expect(seen).toHaveLength(3);
  });

  it('renews the token when the page’s early answer was a 401, as for any other answer', async () => {
    signIn('access-1');
    server.use(protectedPing('access-2'), rotatingRefresh('refresh-1'));
    early({ [PING]: { token: 'access-1', response: Promise.resolve(Response.json({ message: 'expired' }, { status: 401 })) } });
    await expect(apiFetch(PING)).resolves.toEqual({ ok: true });
  });
});
