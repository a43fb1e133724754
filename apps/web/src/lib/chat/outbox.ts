import type { ChatName } from './chats';

/**
 * The outbox (ADR 0049): what the customer sent and the server has not yet confirmed. Pure functions over
 * an array; outbox-store.ts keeps the customer's in localStorage so it survives a reload or a closed tab.
 *
 * - Each entry has a client id, sent as the `Idempotency-Key` (CONTRACT "Chat"): sending it twice, after
 *   a timeout, a reconnect or from two tabs, stores one message.
 * - Entries of one order go out one at a time, in the order they were written (`seq`), so the chat
 *   reads as the customer typed it.
 * - A network failure or a 5xx leaves the entry queued (it goes again on reconnect); a refusal by the
 *   server (4xx other than 408/429) marks it failed with the server's message: the text stays, Retry
 *   queues it again.
 */
export type OutboxPayload = { kind: 'text'; body: string } | { kind: 'sticker'; sticker: number } | { kind: 'emoji'; emoji: string };

export type OutboxStatus = 'queued' | 'sending' | 'failed';

export interface OutboxEntry {
  clientId: string;
  orderId: number;
  chat: ChatName;
  payload: OutboxPayload;
  /** order of writing, across all orders of this browser */
  seq: number;
  createdAt: string;
  status: OutboxStatus;
  /** the server's message of the last refusal (SPEC §8 "Chat") */
  error?: string | undefined;
  attempts: number;
  /** attachments (in memory only: a File does not survive a reload; see ADR 0049) */
  files?: File[] | undefined;
}

export const enqueue = (outbox: readonly OutboxEntry[], entry: Omit<OutboxEntry, 'seq' | 'status' | 'attempts'>): OutboxEntry[] => {
  if (outbox.some((e) => e.clientId === entry.clientId)) return outbox as OutboxEntry[];
  const seq = outbox.reduce((max, e) => Math.max(max, e.seq), 0) + 1;
  return [...outbox, { ...entry, seq, status: 'queued', attempts: 0 }];
};

const update = (outbox: readonly OutboxEntry[], clientId: string, change: (e: OutboxEntry) => OutboxEntry): OutboxEntry[] =>
  outbox.map((e) => (e.clientId === clientId ? change(e) : e));

export const markSending = (outbox: readonly OutboxEntry[], clientId: string): OutboxEntry[] =>
  update(outbox, clientId, (e) => ({ ...e, status: 'sending', attempts: e.attempts + 1, error: undefined }));

/** The server stored it: it leaves the outbox (the message list holds it now). */
export const markSent = (outbox: readonly OutboxEntry[], clientId: string): OutboxEntry[] => outbox.filter((e) => e.clientId !== clientId);

/** Could not reach the server: back in the queue, in its place. */
export const markQueued = (outbox: readonly OutboxEntry[], clientId: string): OutboxEntry[] =>
  update(outbox, clientId, (e) => ({ ...e, status: 'queued' }));

export const markFailed = (outbox: readonly OutboxEntry[], clientId: string, error: string): OutboxEntry[] =>
  update(outbox, clientId, (e) => ({ ...e, status: 'failed', error }));

/** Retry: a failed entry goes back to the queue in its place. */
export const retry = (outbox: readonly OutboxEntry[], clientId: string): OutboxEntry[] =>
  update(outbox, clientId, (e) => (e.status === 'failed' ? { ...e, status: 'queued', error: undefined } : e));

/** The customer deleted a failed or waiting message, or canceled its upload. */
export const discard = (outbox: readonly OutboxEntry[], clientId: string): OutboxEntry[] => outbox.filter((e) => e.clientId !== clientId);

/**
 * What may be sent now: per order, the oldest entry that has not failed, when it is queued (while one
 * is on its way, the next one of that order waits). Sorted by `seq`.
 */
export const sendable = (outbox: readonly OutboxEntry[]): OutboxEntry[] => {
  const heads = new Map<number, OutboxEntry>();
  for (const entry of [...outbox].sort((a, b) => a.seq - b.seq)) {
    if (entry.status === 'failed' || heads.has(entry.orderId)) continue;
    heads.set(entry.orderId, entry);
  }
  return [...heads.values()].filter((e) => e.status === 'queued').sort((a, b) => a.seq - b.seq);
};

/** The entries of one order, in the order written (shown under the chat's messages). */
export const entriesOf = (outbox: readonly OutboxEntry[], orderId: number): OutboxEntry[] =>
  outbox.filter((e) => e.orderId === orderId).sort((a, b) => a.seq - b.seq);

/**
 * After a reload: an entry that was on its way may or may not have arrived; it is queued again and its
 * client id makes the second send answer the stored message. Entries with files cannot come back.
 */
export const revive = (outbox: readonly OutboxEntry[]): OutboxEntry[] =>
  outbox.filter((e) => e.files === undefined || e.files.length === 0).map((e) => (e.status === 'sending' ? { ...e, status: 'queued' } : e));

const isPayload = (value: unknown): value is OutboxPayload => {
  if (typeof value !== 'object' || value === null || !('kind' in value)) return false;
  const v = value as Record<string, unknown>;
  if (v.kind === 'text') return typeof v.body === 'string';
  if (v.kind === 'sticker') return typeof v.sticker === 'number';
  if (v.kind === 'emoji') return typeof v.emoji === 'string';
  return false;
};

const isEntry = (value: unknown): value is OutboxEntry => {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.clientId === 'string' &&
    typeof v.orderId === 'number' &&
    (v.chat === 'writer' || v.chat === 'support') &&
    isPayload(v.payload) &&
    typeof v.seq === 'number' &&
    typeof v.createdAt === 'string' &&
    (v.status === 'queued' || v.status === 'sending' || v.status === 'failed') &&
    typeof v.attempts === 'number'
  );
};

/** The stored form: no files (they cannot be kept), one JSON array. */
export const serialize = (outbox: readonly OutboxEntry[]): string =>
  JSON.stringify(outbox.filter((e) => e.files === undefined || e.files.length === 0).map(({ files: _files, ...rest }) => rest));

/** Reads the stored form back; anything unreadable is dropped rather than trusted. */
export const deserialize = (text: string | null): OutboxEntry[] => {
  if (text === null || text === '') return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter(isEntry) : [];
  } catch {
    return [];
  }
};

/** 4xx refusals are final (the same request will be refused again); 408, 429, 5xx and network failures are not. */
export const isFinalRefusal = (status: number): boolean => status >= 400 && status < 500 && status !== 408 && status !== 429;
