import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  chatOfDirection,
  isCustomerDirection,
  MESSAGE_STATE,
  MESSAGES_PAGE_SIZE,
  SOCKET_EVENT,
  TYPING_TIMEOUT_MS,
  type ChatId,
} from '@app/domain/chat/rules';
import { chatMessageSchema, readFrameDataSchema, type ChatMessage } from '@app/domain/chat';
import { errorMessage } from '@/lib/api-client';
import { UploadCanceledError } from '@/lib/upload';
import { getStaffMessages, getStaffMessagesAfter, markStaffRead, sendStaffMessage, type OutgoingMessage } from '../api/chat';
import { staffKeys } from '../api/keys';
import { useChatConnection } from './chat-context';

export interface ChatData {
  /** Both chats, by sequence, each message once. */
  messages: ChatMessage[];
  hasOlder: boolean;
}

export interface PendingMessage extends OutgoingMessage {
  status: 'sending' | 'failed';
  progress: number;
  error: string | null;
}

/** Merges by id (a later copy wins, but a read message never turns unread again), ordered by sequence. */
export const mergeMessages = (current: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] => {
  const byId = new Map(current.map((m) => [m.id, m]));
  for (const m of incoming) {
    const known = byId.get(m.id);
    byId.set(m.id, known && known.state.id === MESSAGE_STATE.read ? { ...m, state: known.state } : m);
  }
  return [...byId.values()].sort((a, b) => a.sequence - b.sequence);
};

const newClientId = (): string =>
  `staff-${typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`}`;

const orderIdOf = (data: unknown): number | null =>
  typeof data === 'object' && data !== null && 'orderId' in data && typeof data.orderId === 'number' ? data.orderId : null;
const chatOf = (data: unknown): ChatId | null =>
  typeof data === 'object' && data !== null && 'chat' in data && (data.chat === 'writer' || data.chat === 'support') ? data.chat : null;

/**
 * One order's chats for the staff console: history (newest page first, older pages on demand), live
 * messages, typing and read state from the staff socket, a catch-up (`?after=`) on every (re)connect,
 * sends with a client id (retry-safe), and read calls batched. The cache entry `staffKeys.chat(id)` is
 * the one copy of the order's messages.
 */
export const useOrderChat = (orderId: number) => {
  const { base, socket } = useChatConnection();
  const queryClient = useQueryClient();
  const key = useMemo(() => staffKeys.chat(orderId), [orderId]);
  // Messages that arrived on the socket before the first page: merged into it.
  const early = useRef<ChatMessage[]>([]);

  const query = useQuery({
    queryKey: key,
    queryFn: async (): Promise<ChatData> => {
      const { messages } = await getStaffMessages(base, orderId);
      const merged = mergeMessages(messages, early.current.splice(0));
      return { messages: merged, hasOlder: messages.length >= MESSAGES_PAGE_SIZE };
    },
    staleTime: Infinity,
  });

  const mergeIn = useCallback(
    (incoming: readonly ChatMessage[], patch: Partial<ChatData> = {}) => {
      if (!queryClient.getQueryData<ChatData>(key)) {
        early.current.push(...incoming);
        return;
      }
      queryClient.setQueryData<ChatData>(key, (old) => (old ? { ...old, ...patch, messages: mergeMessages(old.messages, incoming) } : old));
    },
    [queryClient, key],
  );

  const setStates = useCallback(
    (match: (m: ChatMessage) => boolean) =>
      queryClient.setQueryData<ChatData>(key, (old) =>
        old
          ? {
              ...old,
              messages: old.messages.map((m) =>
                match(m) && m.state.id !== MESSAGE_STATE.read ? { ...m, state: { id: MESSAGE_STATE.read } } : m,
              ),
            }
          : old,
      ),
    [queryClient, key],
  );

  // ---- typing of the customer (11/12), cleared by itself when no stop comes ----
  const [typing, setTyping] = useState<Record<ChatId, boolean>>({ writer: false, support: false });
  const typingTimers = useRef<Partial<Record<ChatId, ReturnType<typeof setTimeout>>>>({});
  const setChatTyping = useCallback((chats: ChatId[], on: boolean) => {
    for (const chat of chats) {
      clearTimeout(typingTimers.current[chat]);
      if (on) typingTimers.current[chat] = setTimeout(() => setTyping((t) => ({ ...t, [chat]: false })), TYPING_TIMEOUT_MS);
    }
    setTyping((t) => {
      const next = { ...t };
      for (const chat of chats) next[chat] = on;
      return next;
    });
  }, []);
  useEffect(() => {
    const timers = typingTimers.current;
    return () => {
      for (const timer of Object.values(timers)) clearTimeout(timer);
    };
  }, []);

  // ---- the socket: new messages, typing, read state; catch-up on every open ----
  const catchUp = useCallback(async () => {
    const data = queryClient.getQueryData<ChatData>(key);
    const last = data?.messages.at(-1);
    if (!data) return;
    try {
      const missed = last ? await getStaffMessagesAfter(base, orderId, last.id) : (await getStaffMessages(base, orderId)).messages;
      if (missed.length > 0) mergeIn(missed);
    } catch {
      // The next (re)connect tries again; the socket still delivers what comes next.
    }
  }, [base, orderId, queryClient, key, mergeIn]);

  useEffect(() => {
    const offFrame = socket.onFrame((frame) => {
      if (orderIdOf(frame.data) !== orderId && !(frame.event === SOCKET_EVENT.newMessage)) return;
      switch (frame.event) {
        case SOCKET_EVENT.newMessage: {
          const parsed = chatMessageSchema.safeParse((frame.data as { message?: unknown } | null)?.message);
          if (!parsed.success || parsed.data.orderId !== orderId) return;
          mergeIn([parsed.data]);
          // A message ends the sender's typing.
          if (isCustomerDirection(parsed.data.direction.id)) setChatTyping([chatOfDirection(parsed.data.direction.id)], false);
          return;
        }
        case SOCKET_EVENT.customerTypingStart:
        case SOCKET_EVENT.customerTypingStop: {
          const chat = chatOf(frame.data);
          setChatTyping(chat ? [chat] : ['writer', 'support'], frame.event === SOCKET_EVENT.customerTypingStart);
          return;
        }
        case SOCKET_EVENT.read: {
          const parsed = readFrameDataSchema.safeParse(frame.data);
          if (!parsed.success) return;
          const { chat, by, sequence } = parsed.data;
          // The customer read staff's messages, or another staff console read the customer's.
          const readCustomer = by !== 'customer';
          setStates(
            (m) =>
              chatOfDirection(m.direction.id) === chat && m.sequence <= sequence && isCustomerDirection(m.direction.id) === readCustomer,
          );
          return;
        }
        default:
      }
    });
    const offState = socket.onState((state) => {
      if (state === 'open') void catchUp();
    });
    return () => {
      offFrame();
      offState();
    };
  }, [socket, orderId, mergeIn, setStates, setChatTyping, catchUp]);

  // ---- older pages ----
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [olderError, setOlderError] = useState<string | null>(null);
  const loadOlder = useCallback(async () => {
    const data = queryClient.getQueryData<ChatData>(key);
    const first = data?.messages[0];
    if (!data?.hasOlder || !first || loadingOlder) return;
    setLoadingOlder(true);
    setOlderError(null);
    try {
      const { messages } = await getStaffMessages(base, orderId, { before: first.id });
      mergeIn(messages, { hasOlder: messages.length >= MESSAGES_PAGE_SIZE });
    } catch (error) {
      setOlderError(errorMessage(error));
    } finally {
      setLoadingOlder(false);
    }
  }, [base, orderId, queryClient, key, mergeIn, loadingOlder]);

  // ---- sending, with the client id as Idempotency-Key; a failed send keeps its text for Retry ----
  const [pending, setPending] = useState<PendingMessage[]>([]);
  const update = (clientId: string, patch: Partial<PendingMessage>) =>
    setPending((list) => list.map((p) => (p.clientId === clientId ? { ...p, ...patch } : p)));
  const deliver = useCallback(
    async (message: OutgoingMessage) => {
      try {
        const stored = await sendStaffMessage(base, orderId, message, (progress) => update(message.clientId, { progress }));
        mergeIn([stored]);
        setPending((list) => list.filter((p) => p.clientId !== message.clientId));
      } catch (error) {
        if (error instanceof UploadCanceledError) return;
        update(message.clientId, { status: 'failed', error: errorMessage(error) });
      }
    },
    [base, orderId, mergeIn],
  );
  const send = useCallback(
    (chat: ChatId, body: string, files: File[]) => {
      const message: OutgoingMessage = { clientId: newClientId(), chat, body, files };
      setPending((list) => [...list, { ...message, status: 'sending', progress: 0, error: null }]);
      void deliver(message);
    },
    [deliver],
  );
  const retry = useCallback(
    (clientId: string) => {
      const message = pending.find((p) => p.clientId === clientId);
      if (!message) return;
      update(clientId, { status: 'sending', progress: 0, error: null });
      void deliver(message);
    },
    [pending, deliver],
  );
  const discard = useCallback((clientId: string) => setPending((list) => list.filter((p) => p.clientId !== clientId)), []);

  // ---- read: the customer's messages of the chat on screen, batched into one call ----
  const readQueue = useRef(new Set<number>());
  const asked = useRef(new Set<number>());
  const readTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const markSeen = useCallback(
    (ids: readonly number[]) => {
      for (const id of ids) if (!asked.current.has(id)) readQueue.current.add(id);
      if (readQueue.current.size === 0) return;
      clearTimeout(readTimer.current);
      readTimer.current = setTimeout(() => {
        const batch = [...readQueue.current];
        readQueue.current.clear();
        for (const id of batch) asked.current.add(id);
        markStaffRead(base, orderId, batch)
          .then((answer) => {
            const read = new Set(answer.messages);
            setStates((m) => read.has(m.id));
          })
          .catch(() => {
            for (const id of batch) asked.current.delete(id);
          });
      }, 300);
    },
    [base, orderId, setStates],
  );
  useEffect(() => () => clearTimeout(readTimer.current), []);

  // ---- staff typing (13/14): a start at most every 4 s while typing, a stop after 3 s of quiet ----
  const typingSent = useRef<{ chat: ChatId; at: number } | null>(null);
  const stopTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stopTyping = useCallback(() => {
    clearTimeout(stopTimer.current);
    const sent = typingSent.current;
    if (!sent) return;
    typingSent.current = null;
    socket.send(SOCKET_EVENT.supportTypingStop, { orderId, chat: sent.chat });
  }, [socket, orderId]);
  const typed = useCallback(
    (chat: ChatId) => {
      const now = Date.now();
      const sent = typingSent.current;
      if (sent && sent.chat !== chat) stopTyping();
      if (!typingSent.current || now - typingSent.current.at > 4000) {
        if (socket.send(SOCKET_EVENT.supportTypingStart, { orderId, chat })) typingSent.current = { chat, at: now };
      }
      clearTimeout(stopTimer.current);
      stopTimer.current = setTimeout(stopTyping, 3000);
    },
    [socket, orderId, stopTyping],
  );
  useEffect(() => stopTyping, [stopTyping]);

  return { query, loadOlder, loadingOlder, olderError, pending, send, retry, discard, markSeen, typing, typed, stopTyping };
};
export type OrderChat = ReturnType<typeof useOrderChat>;
