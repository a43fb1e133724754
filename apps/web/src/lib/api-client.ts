import { TRANSPORT_MESSAGE, type FieldErrors } from '@app/domain/errors';
import { takeEarlyResponse } from './early-requests';
import { takeInlineAnswer } from './inline-answers';
import { tokenStorage } from './storage';

/**
 * SPEC §8 "Transport": every failure is an ApiError. 400, 403, 404 and 422 (CONTRACT adds 409, 413 and
 * 429) carry the parsed body; other statuses and network failures (status 0) carry none.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;

  constructor(message: string, status: number, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }

  /** The `message` of a CONTRACT error body, when the server sent one. */
  get serverMessage(): string | undefined {
    const body = this.body;
    if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') {
      return body.message;
    }
    return undefined;
  }

  /** The `errors` of a CONTRACT error body: field name to messages. */
  get fieldErrors(): FieldErrors {
    const body = this.body;
    if (typeof body === 'object' && body !== null && 'errors' in body && typeof body.errors === 'object' && body.errors !== null) {
      return body.errors as FieldErrors;
    }
    return {};
  }
}

/** Anything with a zod-like `parse`; the domain's schemas fit, and lib/ stays free of zod (ADR 0020). */
export interface Schema<T> {
  parse: (data: unknown) => T;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface ApiFetchOptions<T> {
  method?: HttpMethod;
  /** Sent as application/json. */
  json?: unknown;
  /** SPEC "form" calls: a record goes url-encoded, FormData as multipart. */
  form?: Record<string, string> | FormData;
  /**
   * Parses the answer. A loader function (`() => import('@app/domain/x').then(m => m.schema)`) starts
   * with the request, so eager code can parse with a domain schema without bundling zod (ADR 0020).
   */
  schema?: Schema<T> | (() => Promise<Schema<T>>);
  /**
   * When a loader schema checks the answer. 'before' (the default): the call resolves with the parsed
   * answer. 'after': for the few answers a first paint waits on (site settings, the customer, the
   * wizard's catalogues), the call resolves with the answer as it came and the schema checks it once the
   * first page is on screen (`releaseDeferredChecks`); a mismatch goes to the `onBadResponse` listeners.
   * An answer the page itself brought is not checked (ADR 0065).
   * The server sends these answers through the same schema, so this second check must not cost every
   * first paint the 15 kB gzip of zod (ADR 0028).
   */
  check?: 'before' | 'after';
  /** Sent as the bearer instead of the access token, with no refresh on 401 (the refresh token on logout). */
  bearer?: string;
  /** false for the calls that need no token (CONTRACT "Errors and access"); a token is still sent when one exists. */
  auth?: boolean;
  /** Extra request headers (the order POST's `Idempotency-Key`, CONTRACT "Orders and catalogues"). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

const STATUSES_WITH_BODY = new Set([400, 403, 404, 409, 413, 422, 429]);

type SessionEndListener = () => void;
const sessionEndListeners = new Set<SessionEndListener>();

/**
 * The app learns here that the session ended (refresh failed, or no token at all): SPEC §8 "401 triggers
 * the refresh, then a logout". Returns the unsubscribe function.
 */
export const onSessionEnd = (listener: SessionEndListener): (() => void) => {
  sessionEndListeners.add(listener);
  return () => {
    sessionEndListeners.delete(listener);
  };
};

let holds = 0;
let endedWhileHeld = false;

const endSession = (): void => {
  tokenStorage.clear();
  if (holds > 0) {
    endedWhileHeld = true;
    return;
  }
  for (const listener of sessionEndListeners) listener();
};

/**
 * ADR 0070: the app is about to end the session itself (an account deletion, which SPEC §9 follows with
 * /logout after 3 s). Meanwhile an end noticed elsewhere (the chat socket closed with 4401 by the deletion,
 * ADR 0069, then a refused renewal) clears the tokens but does not move the app. The release says whether
 * the app left by itself (`true`: a held end is dropped) or not (`false`: a held end is announced now).
 */
export const holdSessionEnd = (): ((leftByItself: boolean) => void) => {
  holds += 1;
  let released = false;
  return (leftByItself) => {
    if (released) return;
    released = true;
    holds -= 1;
    if (holds > 0 || !endedWhileHeld) return;
    endedWhileHeld = false;
    if (!leftByItself) for (const listener of sessionEndListeners) listener();
  };
};

type BadResponseListener = (error: ApiError, path: string) => void;
const badResponseListeners = new Set<BadResponseListener>();

/** The app learns here that an answer checked after the first paint did not fit its schema. */
export const onBadResponse = (listener: BadResponseListener): (() => void) => {
  badResponseListeners.add(listener);
  return () => {
    badResponseListeners.delete(listener);
  };
};

let checksDeferred = true;
const deferredChecks: Array<() => void> = [];

/** The first page is on screen: the deferred checks run now, and later ones at once. */
export const releaseDeferredChecks = (): void => {
  checksDeferred = false;
  for (const run of deferredChecks.splice(0)) run();
};

/**
 * The server's render of a page (ADR 0064) runs `render` with no check queued: its answers are the
 * server's own, made through the same schemas, and nothing would ever release a queue there (it would
 * only grow).
 */
let answerChecks = true;
export const withoutAnswerChecks = <T>(render: () => T): T => {
  answerChecks = false;
  try {
    return render();
  } finally {
    answerChecks = true;
  }
};

/**
 * For tests: how many checks wait for `releaseDeferredChecks`.
 * @internal a window on this module's state that only tests read (`knip --production` lets it pass, ADR 0079)
 */
export const deferredCheckCount = (): number => deferredChecks.length;

/**
 * For tests: checks wait again for `releaseDeferredChecks`.
 * @internal a reset of this module's state for tests (ADR 0079)
 */
export const deferChecksAgain = (): void => {
  checksDeferred = true;
};

/** A macrotask boundary: each deferred check parses in a task of its own, not all in one long task (ADR 0040). */
const nextTask = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

const checkLater = <T>(path: string, data: unknown, load: () => Promise<Schema<T>>): void => {
  const run = () => {
    load()
      .then(async (schema) => {
        await nextTask();
        return schema.parse(data);
      })
      .catch((error: unknown) => {
        const bad = new ApiError(TRANSPORT_MESSAGE.badResponse, 200, error instanceof Error ? error.message : undefined);
        for (const listener of badResponseListeners) listener(bad, path);
      });
  };
  if (!answerChecks) return;
  if (checksDeferred) deferredChecks.push(run);
  else run();
};

/**
 * The answer the page brought for a public GET, at once (no promise to wait for); undefined when the page
 * brought none. For the startup's answers, which then are in the cache before the first render (ADR 0057).
 * Like the answers of the server's render, it is not checked again (ADR 0065): the server that wrote it
 * into the page made it through the same schema and named, in that page, this very build of the app.
 */
export const takePageAnswer = <T>(path: string): T | undefined => {
  const inline = takeInlineAnswer(path);
  return inline === undefined ? undefined : (inline.data as T);
};

/** A public GET with no body: the page may have brought its answer (ADR 0040). */
const mayBeInline = (method: HttpMethod, auth: boolean, json: unknown, form: unknown): boolean =>
  method === 'GET' && !auth && json === undefined && form === undefined;

const readBody = async (response: Response): Promise<unknown> => {
  const text = await response.text().catch(() => '');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
};

const networkError = (): ApiError => new ApiError(TRANSPORT_MESSAGE.badResponse, 0);

/**
 * A usable access token after a 401 seen by a request that started with `startRefreshToken`, or null.
 * The renewal's code (one rotation at a time, across tabs, one retry of a lost answer) loads when a token
 * is first renewed: a visitor's first paint never needs it (bench/bundle-size.mjs).
 */
const renewAccessToken = async (startRefreshToken: string | null): Promise<string | null> => {
  const { renewAccessToken: renew } = await import('./token-refresh');
  const renewed = await renew(startRefreshToken);
  if (renewed === 'unreachable') throw networkError();
  return renewed;
};

interface RequestParts {
  method: HttpMethod;
  json: unknown;
  form: Record<string, string> | FormData | undefined;
  headers: Record<string, string> | undefined;
  signal: AbortSignal | undefined;
}

const send = async (path: string, parts: RequestParts, accessToken: string | null): Promise<Response> => {
  const headers = new Headers({ ...parts.headers, Accept: 'application/json' });
  if (accessToken !== null) headers.set('Authorization', `Bearer ${accessToken}`);
  let body: BodyInit | undefined;
  if (parts.json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(parts.json);
  } else if (parts.form instanceof FormData) {
    body = parts.form;
  } else if (parts.form !== undefined) {
    body = new URLSearchParams(parts.form);
  }
  // ADR 0100: a signed-in page's first answers were asked for by the page itself, before this code ran.
  if (parts.method === 'GET' && body === undefined && parts.headers === undefined) {
    const early = await takeEarlyResponse(path, accessToken)?.catch(() => undefined);
    if (early !== undefined) return early;
  }
  try {
    return await fetch(path, { method: parts.method, headers, body, signal: parts.signal });
  } catch (error) {
    if (parts.signal?.aborted) throw error;
    throw networkError();
  }
};

const parseResponse = async <T>(
  response: Response,
  schema: Schema<T> | Promise<Schema<T>> | (() => Promise<Schema<T>>) | undefined,
): Promise<T> => {
  if (!response.ok) {
    const body = STATUSES_WITH_BODY.has(response.status) ? await readBody(response) : undefined;
    throw new ApiError(TRANSPORT_MESSAGE.badResponse, response.status, body);
  }
  const data = await readBody(response);
  if (schema === undefined || typeof schema === 'function') return data as T;
  return (await schema).parse(data);
};

/**
 * The one way the web app calls the API (SPEC §4 "Authentication", §8 "Transport"): bearer token on
 * every call when one exists; a 401 refreshes once and repeats the request once; a failed refresh or a
 * missing token ends the session.
 */
export const apiFetch = async <T = unknown>(path: string, options: ApiFetchOptions<T> = {}): Promise<T> => {
  const { method = 'GET', json, form, schema: given, check = 'before', auth = true, bearer, signal, headers } = options;
  if (check === 'after' && typeof given === 'function') {
    // An answer the page brought is the server's own, from this build: no check to queue (ADR 0065).
    const inline = mayBeInline(method, auth, json, form) ? takeInlineAnswer(path) : undefined;
    if (inline !== undefined) return inline.data as T;
    const data = await apiFetch<unknown>(path, { ...options, schema: undefined, check: 'before' });
    checkLater(path, data, given);
    return data as T;
  }
  const schema = given;
  // The page may have brought this public answer with it (ADR 0040): the same bytes the server would send.
  // A schema that parses before the answer is used may also shape it (defaults, dates): it still runs.
  if (mayBeInline(method, auth, json, form)) {
    const inline = takeInlineAnswer(path);
    if (inline !== undefined) {
      if (schema === undefined) return inline.data as T;
      return (typeof schema === 'function' ? await schema() : schema).parse(inline.data);
    }
  }
  const parts: RequestParts = { method, json, form, headers, signal };
  const schemaLoad = typeof schema === 'function' ? schema() : undefined;
  // Awaited after the response; until then a failed load must not count as unhandled.
  schemaLoad?.catch(() => undefined);
  if (bearer !== undefined) return parseResponse(await send(path, parts, bearer), schemaLoad ?? schema);
  const started = tokenStorage.read();
  if (auth && started.accessToken === null && started.refreshToken === null) {
    endSession();
    throw new ApiError(TRANSPORT_MESSAGE.accessTokenMissing, 401);
  }

  let accessToken = started.accessToken;
  if (auth && accessToken === null) {
    accessToken = await renewAccessToken(started.refreshToken);
    if (accessToken === null) {
      endSession();
      throw new ApiError(TRANSPORT_MESSAGE.accessTokenMissing, 401);
    }
  }

  let response = await send(path, parts, accessToken);
  if (response.status === 401 && (auth || accessToken !== null)) {
    const renewed = await renewAccessToken(started.refreshToken);
    if (renewed === null) {
      endSession();
      throw new ApiError(TRANSPORT_MESSAGE.badResponse, 401);
    }
    response = await send(path, parts, renewed);
    if (response.status === 401) {
      endSession();
      throw new ApiError(TRANSPORT_MESSAGE.badResponse, 401);
    }
  }

  return parseResponse(response, schemaLoad ?? schema);
};

/** The message to show for a failed call: the server's own words when it sent some (SPEC §8). */
export const errorMessage = (error: unknown, fallback: string = TRANSPORT_MESSAGE.somethingWentWrong): string =>
  error instanceof ApiError ? (error.serverMessage ?? fallback) : fallback;

/**
 * For the calls that cannot go through apiFetch (uploads that report progress, blob downloads): runs
 * `send` with the access token and, after a 401, once more with a renewed one, as apiFetch does
 * (SPEC §4 "Authentication"). A failed renewal ends the session.
 */
export const withAccessToken = async <R extends { status: number }>(send: (accessToken: string | null) => Promise<R>): Promise<R> => {
  const started = tokenStorage.read();
  const first = await send(started.accessToken);
  if (first.status !== 401) return first;
  const renewed = await renewAccessToken(started.refreshToken);
  if (renewed === null) {
    endSession();
    throw new ApiError(TRANSPORT_MESSAGE.badResponse, 401);
  }
  const second = await send(renewed);
  if (second.status === 401) {
    endSession();
    throw new ApiError(TRANSPORT_MESSAGE.badResponse, 401);
  }
  return second;
};

/** The ApiError for a non-2xx answer read outside apiFetch, with the body when CONTRACT gives one. */
export const apiErrorFor = (status: number, body: unknown): ApiError =>
  new ApiError(TRANSPORT_MESSAGE.badResponse, status, STATUSES_WITH_BODY.has(status) ? body : undefined);
