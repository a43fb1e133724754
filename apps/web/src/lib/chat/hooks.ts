import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { WRITER_ONLINE_POLL_MS } from '@app/domain/chat/rules';
import { getWriterOnline, markMessagesRead } from './api';
import type { ChatName } from './chats';
import type { ConnectionStatus } from './connection';
import { chatKeys } from './keys';
import { loadOlder, markIdsRead, messageWindowOptions } from './messages';
import { entriesOf, type OutboxEntry } from './outbox';
import { createReadBatcher } from './read-batch';
import { chatSessionStore, type ChatSession } from './current';
import type { ChatSide } from './side';
import { otherTypingLeftMs } from './typing';

/** The engine's state for React (ADR 0076): the session's stores and the chat resource's queries. */
const noSubscribe = () => () => undefined;

export const useChatSession = (): ChatSession | null =>
  useSyncExternalStore(chatSessionStore.subscribe, chatSessionStore.get, chatSessionStore.get);

type OutgoingMessage = Parameters<ChatSession['send']>[0];

/**
 * Sends through the tab's chat session; a message sent before the session has started (its code arrives
 * after the page, which can be drawn first, ADR 0100) waits here and is handed over once it runs, never
 * dropped with the cleared composer.
 */
export const useChatSend = (): ((message: OutgoingMessage) => void) => {
  const session = useChatSession();
  const waiting = useRef<OutgoingMessage[]>([]);
  useEffect(() => {
    if (session) for (const message of waiting.current.splice(0)) session.send(message);
  }, [session]);
  return useCallback(
    (message: OutgoingMessage) => {
      if (session) session.send(message);
      else waiting.current.push(message);
    },
    [session],
  );
};

export const useConnectionStatus = (): ConnectionStatus | null => {
  const session = useChatSession();
  return useSyncExternalStore(session?.status.subscribe ?? noSubscribe, () => session?.status.get() ?? null);
};

/** An order's messages (both chats), with the older page on demand. */
export const useMessageWindow = (side: ChatSide, orderId: number) => {
  const queryClient = useQueryClient();
  const query = useQuery(messageWindowOptions(queryClient, side, orderId));
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<unknown>(null);
  const older = useCallback(async () => {
    setLoadingOlder(true);
    setOlderError(null);
    try {
      await loadOlder(queryClient, side, orderId);
    } catch (error) {
      setOlderError(error);
    } finally {
      setLoadingOlder(false);
    }
  }, [orderId, queryClient, side]);
  return { ...query, loadOlder: older, loadingOlder, olderError };
};

/** The writer's online dot: polled every 60 s, event 8 in between (SPEC §4, §9). */
export const useWriterOnline = (orderId: number, enabled: boolean): boolean =>
  useQuery({
    queryKey: chatKeys.writerOnline(orderId),
    queryFn: () => getWriterOnline(orderId),
    enabled,
    refetchInterval: WRITER_ONLINE_POLL_MS,
    staleTime: WRITER_ONLINE_POLL_MS,
  }).data ?? false;

/** The other side is typing in this chat, until its stop, its message or the timeout. */
export const useTyping = (orderId: number, chat: ChatName): boolean => {
  const session = useChatSession();
  const key = `${orderId}:${chat}`;
  const startedAt = useSyncExternalStore(session?.typing.subscribe ?? noSubscribe, () => session?.typing.get().get(key) ?? null);
  // The start frame that timed out (no stop came): hidden from then on, until the next start.
  const [expired, setExpired] = useState<number | null>(null);
  useEffect(() => {
    if (startedAt === null) return;
    const timer = setTimeout(() => setExpired(startedAt), otherTypingLeftMs(startedAt, Date.now()));
    return () => clearTimeout(timer);
  }, [startedAt]);
  return startedAt !== null && expired !== startedAt;
};

const NO_ENTRIES: OutboxEntry[] = [];

/** This order's messages waiting in the outbox, in the order written. */
export const useOutboxEntries = (orderId: number): OutboxEntry[] => {
  const session = useChatSession();
  const all = useSyncExternalStore(session?.outbox.subscribe ?? noSubscribe, () => session?.outbox.get() ?? NO_ENTRIES);
  return useMemo(() => entriesOf(all, orderId), [all, orderId]);
};

const NO_PROGRESS: ReadonlyMap<string, number> = new Map();
export const useUploadProgress = (): ReadonlyMap<string, number> => {
  const session = useChatSession();
  return useSyncExternalStore(session?.progress.subscribe ?? noSubscribe, () => session?.progress.get() ?? NO_PROGRESS);
};

/**
 * Read receipts (ADR 0049): ids the viewer has seen are batched into one PUT; the messages it names turn
 * read in the cache, its counts replace the order's unread, and the summary is asked again.
 */
export const useReadReceipts = (side: ChatSide, orderId: number): ((ids: readonly number[]) => void) => {
  const queryClient = useQueryClient();
  const batcher = useRef<ReturnType<typeof createReadBatcher> | null>(null);
  useEffect(() => {
    const current = createReadBatcher({
      send: async (ids) => {
        const answer = await markMessagesRead(side, orderId, ids);
        markIdsRead(queryClient, orderId, answer.messages);
        queryClient.setQueryData(chatKeys.unread(orderId), answer.unread);
        void queryClient.invalidateQueries({ queryKey: chatKeys.unreadAll() });
      },
    });
    batcher.current = current;
    return () => {
      current.flush();
      current.dispose();
      batcher.current = null;
    };
  }, [orderId, queryClient, side]);
  return useCallback((ids) => batcher.current?.seen(ids), []);
};
