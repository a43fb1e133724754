import { useCallback, useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { customerTimeZone, dateTimeFormat } from '@/lib/dates';
import { useNow } from '@/lib/use-now';
import { chatOf, isOwn, type ChatName } from '@/lib/chat/chats';
import { dayLabel, withDaySeparators } from '../lib/days';
import type { OutboxEntry } from '@/lib/chat/outbox';
import type { ChatMessage } from '@app/domain/chat';
import {
  useChatSend,
  useChatSession,
  useConnectionStatus,
  useMessageWindow,
  useOutboxEntries,
  useReadReceipts,
  useTyping,
  useUploadProgress,
} from '@/lib/chat/hooks';
import { Composer } from '@/components/chat/composer';
import { MessageBubble, PendingBubble } from '@/components/chat/message-bubble';
import { messageFileUrl } from '@/lib/chat/api';
import { useSeen } from '../hooks/use-seen';

const NEAR_BOTTOM_PX = 120;

type Row = { kind: 'message'; message: ChatMessage } | { kind: 'pending'; entry: OutboxEntry };

const rowKey = (row: Row): string =>
  // An own message keeps its client id as its key from "sending" to "sent": the same node, announced once.
  row.kind === 'pending' ? `c-${row.entry.clientId}` : row.message.clientId ? `c-${row.message.clientId}` : `m-${row.message.id}`;

const rowDate = (row: Row): string => (row.kind === 'pending' ? row.entry.createdAt : row.message.dateCreated);

const timeFormat = (timeZone: string) => dateTimeFormat(undefined, { timeZone, hour: 'numeric', minute: '2-digit' });

/** One chat of the order: its history (older pages on scrolling up), live messages, typing, the composer. */
export function ChatPanel({ orderId, chat, hasWriter }: { orderId: number; chat: ChatName; hasWriter: boolean }) {
  const session = useChatSession();
  const send = useChatSend();
  const status = useConnectionStatus();
  const window = useMessageWindow('customer', orderId);
  const outbox = useOutboxEntries(orderId);
  const progress = useUploadProgress();
  const typing = useTyping(orderId, chat);
  const markSeen = useReadReceipts('customer', orderId);
  const now = useNow(60_000);
  const timeZone = customerTimeZone();
  const scroller = useRef<HTMLDivElement>(null);
  const observe = useSeen(scroller, markSeen);
  const counterpart = chat === 'writer' ? 'your writer' : 'support';
  const sender = chat === 'writer' ? 'Writer' : 'Support';

  const messages = useMemo(() => (window.data?.messages ?? []).filter((m) => chatOf(m.direction.id) === chat), [window.data, chat]);
  const rows = useMemo<Row[]>(() => {
    const stored = new Set(messages.map((m) => m.clientId).filter(Boolean));
    const pending = outbox.filter((e) => e.chat === chat && !stored.has(e.clientId));
    return [
      ...messages.map((message) => ({ kind: 'message' as const, message })),
      ...pending.map((entry) => ({ kind: 'pending' as const, entry })),
    ];
  }, [messages, outbox, chat]);
  const items = useMemo(() => withDaySeparators(rows, rowDate, timeZone), [rows, timeZone]);

  // ── scrolling: to the end on open and on new messages (when already near it), kept on older pages ──
  const anchor = useRef<number | null>(null);
  const firstKey = rows[0] ? rowKey(rows[0]) : null;
  const lastKey = rows.length > 0 ? rowKey(rows[rows.length - 1]!) : null;
  const lastOwn = rows.length > 0 ? rows[rows.length - 1]!.kind === 'pending' : false;
  const wasNearBottom = useRef(true);
  const onScroll = () => {
    const el = scroller.current;
    if (el) wasNearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < NEAR_BOTTOM_PX;
  };
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (anchor.current !== null) {
      el.scrollTop = el.scrollHeight - anchor.current;
      anchor.current = null;
    }
  }, [firstKey]);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    if (wasNearBottom.current || lastOwn) el.scrollTop = el.scrollHeight;
  }, [lastKey, lastOwn, typing]);

  // Shown again (its tab kept mounted while hidden, where no scrolling happens) or resized (a phone's
  // keyboard, a turned screen): back at the end if it was there.
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (wasNearBottom.current && el.clientHeight > 0) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const { loadOlder, loadingOlder } = window;
  const hasOlder = window.data?.hasOlder ?? false;
  const loadOlderKeepingPlace = useCallback(() => {
    const el = scroller.current;
    if (el) anchor.current = el.scrollHeight - el.scrollTop;
    void loadOlder();
  }, [loadOlder]);

  // Scrolling up to the top loads the older page by itself; the button does it by keyboard.
  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || !hasOlder || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !loadingOlder) loadOlderKeepingPlace();
      },
      { root: scroller.current, rootMargin: '80px 0px 0px 0px' },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [hasOlder, loadingOlder, loadOlderKeepingPlace, window.data]);

  const offline = status !== null && status !== 'open';
  const logLabel = chat === 'writer' ? 'Messages with your writer' : 'Messages with support';

  const conversation = (
    <>
      {/* The list is a log (ADR 0049): polite, new messages read once; focusable so it scrolls by keyboard. */}
      <div
        ref={scroller}
        onScroll={onScroll}
        role="log"
        aria-live="polite"
        aria-label={logLabel}
        aria-busy={loadingOlder || window.isPending || undefined}
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling log must be reachable by keyboard (axe: scrollable-region-focusable)
        tabIndex={0}
        data-focus-inset
        className="h-[55vh] min-h-72 overflow-y-auto px-3 py-3 lg:h-[60vh]"
      >
        {window.isPending && (
          <p role="status" className="flex items-center gap-2 text-slate-700">
            <Spinner /> Loading messages…
          </p>
        )}
        {window.isError && !window.data && (
          <Alert tone="error">Messages could not be loaded. They will load when the connection is back.</Alert>
        )}
        {hasOlder && (
          <div ref={sentinel} className="flex justify-center pb-2">
            <button
              type="button"
              onClick={loadOlderKeepingPlace}
              disabled={loadingOlder}
              className="inline-flex items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-1 text-sm text-slate-900 hover:bg-slate-100"
            >
              {loadingOlder && <Spinner />}
              Load older messages
            </button>
          </div>
        )}
        {window.olderError !== null && (
          <p className="pb-2 text-center text-sm text-red-700">Older messages could not be loaded. Please try again.</p>
        )}
        {window.isSuccess && rows.length === 0 && (
          <p className="py-8 text-center text-sm text-slate-700">No messages yet. Write to {counterpart} below.</p>
        )}
        <div className="flex flex-col gap-2">
          {items.map((item) =>
            item.kind === 'day' ? (
              <p key={`d-${item.key}`} className="my-2 flex items-center gap-3 text-xs font-medium text-slate-700">
                <span className="h-px flex-1 bg-slate-200" aria-hidden="true" />
                <span>{dayLabel(item.iso, now, timeZone)}</span>
                <span className="h-px flex-1 bg-slate-200" aria-hidden="true" />
              </p>
            ) : item.item.kind === 'message' ? (
              <MessageBubble
                key={rowKey(item.item)}
                message={item.item.message}
                own={isOwn(item.item.message.direction.id)}
                author={isOwn(item.item.message.direction.id) ? 'You' : (item.item.message.senderName ?? sender)}
                // ADR 0095: the writer's name over each of their messages
                showAuthor={chat === 'writer' && !isOwn(item.item.message.direction.id)}
                time={timeFormat(timeZone).format(new Date(item.item.message.dateCreated))}
                fileUrl={(fileId) => messageFileUrl('customer', orderId, fileId)}
                observe={
                  !isOwn(item.item.message.direction.id) && item.item.message.state.id === 1 ? observe(item.item.message.id) : undefined
                }
              />
            ) : (
              <PendingBubble
                key={rowKey(item.item)}
                entry={item.item.entry}
                percent={progress.get(item.item.entry.clientId)}
                offline={offline}
                onRetry={() => session?.retry((item.item as { entry: OutboxEntry }).entry.clientId)}
                onCancel={() => session?.cancel((item.item as { entry: OutboxEntry }).entry.clientId)}
              />
            ),
          )}
        </div>
      </div>
      <p aria-live="polite" className="min-h-6 px-3 text-sm text-slate-700 italic">
        {typing ? `${chat === 'writer' ? 'Your writer' : 'Support'} is typing…` : ''}
      </p>
    </>
  );

  return (
    <section
      aria-label={chat === 'writer' ? 'Writer chat' : 'Support chat'}
      className="flex flex-col overflow-hidden rounded-lg border border-slate-200 bg-white"
    >
      {offline && (
        <p role="status" className="border-b border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          Reconnecting… Messages you send now will go out when the connection is back.
        </p>
      )}
      {chat === 'writer' && !hasWriter && (
        <p className="border-b border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800">
          No writer is assigned to this order yet. Your messages will wait for them here; support can help meanwhile.
        </p>
      )}
      <Composer
        above={conversation}
        counterpart={counterpart}
        draftKey={`chatDraft.${orderId}.${chat}`}
        emoji
        onSend={({ body, files }) => send({ orderId, chat, payload: { kind: 'text', body }, files })}
        onSticker={(sticker) => send({ orderId, chat, payload: { kind: 'sticker', sticker } })}
        onTyping={(signal) => session?.sendTyping(orderId, chat, signal)}
      />
    </section>
  );
}
