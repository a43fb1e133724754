import { timingSafeEqual } from 'node:crypto';
import type { PaymentEventStatus, PaymentSystem } from '@app/domain';

/** The attempt an adapter is asked to start or to check. Money in integer cents. */
export interface PaymentAttempt {
  id: string;
  orderId: number;
  customerId: number;
  amountCents: number;
  currency: string;
  providerRef: string | null;
  createdAt: Date;
}

export interface OrderSummary {
  id: number;
  uid: string;
  title: string;
}

/** Where the provider sends the buyer back and where it posts its callback. */
export interface ReturnUrls {
  success: string;
  fail: string;
  callback: string;
  /** PayPal returns the buyer here to capture the approved order (server route). */
  capture: string;
  /** A server route that sends the browser on to the order page (for providers that return by POST). */
  serverReturn: string;
}

export interface CreatedPayment {
  redirectUrl: string;
  /** The provider's own id for the attempt (PayPal order id, paycore invoice id), when it has one. */
  providerRef?: string;
}

/** A callback as it reached us: the raw body is what the providers sign. */
export interface CallbackRequest {
  method: string;
  headers: Record<string, string | undefined>;
  /** The query string's parameters (Paymentwall pingbacks arrive by GET). */
  query: Record<string, string>;
  rawBody: string;
}

/** A verified provider event, normalised. */
export interface PaymentEvent {
  /** Unique per provider: the same event delivered twice has the same id. */
  eventId: string;
  paymentId: string;
  status: PaymentEventStatus;
  /** null when the provider's message does not carry the amount (it was fixed by a signed request). */
  amountCents: number | null;
  currency: string | null;
}

/** What the callback route answers the provider once the event is handled. */
export interface CallbackAnswer {
  contentType: string;
  body: string;
}

/** Thrown by verifyCallback: the signature (or the sender's proof) does not hold. The route answers 403. */
export class SignatureError extends Error {
  constructor(message = 'Invalid signature') {
    super(message);
    this.name = 'SignatureError';
  }
}

/** Thrown when the provider's API refuses or answers something unexpected. */
export class ProviderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderError';
  }
}

/** The sandbox outcome the buyer picked on the sandbox page. */
export type SandboxOutcome = 'paid' | 'declined';

/** A request the sandbox sends to our own callback route, built and signed as the provider would. */
export interface SandboxCallback {
  method: 'GET' | 'POST';
  /** Query string (with the leading '?') or ''. */
  search: string;
  headers: Record<string, string>;
  body: string;
}

/** One interface for every provider (ADR 0024). */
export interface PaymentProvider {
  readonly name: PaymentSystem;
  readonly sandbox: boolean;
  /** Starts the attempt at the provider and says where the buyer goes. */
  createPayment(input: { payment: PaymentAttempt; order: OrderSummary; returnUrls: ReturnUrls }): Promise<CreatedPayment>;
  /** Verifies a callback and normalises it; null for an authentic message we have nothing to do with. */
  verifyCallback(request: CallbackRequest): Promise<PaymentEvent | null>;
  /** The provider's expected answer to a callback it delivered. */
  readonly callbackAnswer: CallbackAnswer;
  /** Asks the provider what became of an attempt (a verified status query); null when it does not know yet. */
  queryStatus?(payment: PaymentAttempt): Promise<PaymentEvent | null>;
  /** PayPal: captures the order the buyer approved (the capture answer is a verified status). */
  capture?(payment: PaymentAttempt): Promise<PaymentEvent | null>;
  /** Sandbox mode only: the callback this provider would send for the outcome. */
  sandboxCallback(payment: PaymentAttempt, outcome: SandboxOutcome): SandboxCallback;
}

/** Compares two signatures in constant time (ADR 0024: "compared in constant time"). */
export const safeEqual = (expected: string, received: string): boolean => {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  // timingSafeEqual needs equal lengths; comparing against itself keeps the time independent of where they differ.
  if (a.length !== b.length) {
    timingSafeEqual(a, a);
    return false;
  }
  return timingSafeEqual(a, b);
};

/** Cents from a decimal amount string like "12.30" without floating-point drift. */
export const decimalToCents = (value: string | number): number | null => {
  const text = String(value).trim();
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
};

export const centsToDecimal = (cents: number): string => `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Parses a body sent as JSON or as an urlencoded form into flat string fields. */
export const parseFields = (raw: string, contentType: string | undefined): Record<string, string> => {
  if (contentType?.includes('application/json')) {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object') return {};
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(parsed)) {
      if (v === null || v === undefined) continue;
      fields[k] = typeof v === 'object' ? JSON.stringify(v) : String(v as string | number | boolean);
    }
    return fields;
  }
  return Object.fromEntries(new URLSearchParams(raw));
};

/**
 * ADR 0074: a provider's API answers within this (PAYMENTS_PROVIDER_TIMEOUT_SECONDS), or the call fails as
 * unavailable: a checkout never holds the buyer longer, a job never waits longer for one attempt.
 */
export const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * The provider could not say (no answer within the time, no connection, a 5xx): whether it acted on the
 * request is unknown. A checkout keeps such an attempt open for the reconciliation job to ask about later
 * (ADR 0074), where a refusal (ProviderError) declines it at once.
 */
export class ProviderUnavailableError extends ProviderError {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderUnavailableError';
  }
}

/**
 * One call to a provider's API with a deadline over the whole exchange (the answer's body included). No
 * answer in time, none at all, or a 5xx is a ProviderUnavailableError; the message names the endpoint by
 * its origin and path only (a query string may carry a signature).
 */
export const providerCall = async (
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  timeoutMs: number = PROVIDER_TIMEOUT_MS,
): Promise<{ status: number; text: string }> => {
  const where = `${new URL(url).origin}${new URL(url).pathname}`;
  let answer: { status: number; text: string };
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    answer = { status: res.status, text: await res.text() };
  } catch (error) {
    const late = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new ProviderUnavailableError(late ? `${where} did not answer within ${timeoutMs} ms` : `${where} could not be reached`);
  }
  if (answer.status >= 500) throw new ProviderUnavailableError(`${where} answered ${answer.status}`);
  return answer;
};

/** JSON POST to a provider within `timeoutMs`; any other non-2xx answer is a ProviderError. */
export const postJson = async (url: string, body: unknown, headers: Record<string, string> = {}, timeoutMs?: number): Promise<unknown> => {
  const res = await providerCall(
    url,
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
    },
    timeoutMs,
  );
  if (res.status < 200 || res.status >= 300) throw new ProviderError(`${url} answered ${res.status}`);
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    throw new ProviderError(`${url} answered something that is not JSON`);
  }
};

/**
 * JSON GET from a provider within `timeoutMs`. A 404 is null (the provider does not know the object yet);
 * any other non-2xx answer, or one that is not JSON, is a ProviderError.
 */
export const getJson = async (url: string, headers: Record<string, string> = {}, timeoutMs?: number): Promise<unknown> => {
  const res = await providerCall(url, { method: 'GET', headers: { accept: 'application/json', ...headers } }, timeoutMs);
  if (res.status === 404) return null;
  const where = `${new URL(url).origin}${new URL(url).pathname}`;
  if (res.status < 200 || res.status >= 300) throw new ProviderError(`${where} answered ${res.status}`);
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    throw new ProviderError(`${where} answered something that is not JSON`);
  }
};
