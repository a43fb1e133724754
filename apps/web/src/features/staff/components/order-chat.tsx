import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { CANNED_REPLIES, cannedReplyText } from '@app/domain/staff/rules';
import { inputClass } from '@/components/ui/input';
import { chatOfDirection, chatsSeenBy, staffChatOf, type ChatId } from '@app/domain/chat/rules';
import { Composer } from '@/components/chat/composer';
import { MessageBubble, PendingBubble } from '@/components/chat/message-bubble';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { errorMessage } from '@/lib/api-client';
import { messageFileUrl } from '@/lib/chat/api';
import { isOwn } from '@/lib/chat/chats';
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
import { unreadIdsOf } from '@/lib/chat/unread';
import { formatDateTime } from '@/lib/dates';

const AUTHOR: Record<number, string> = { 1: 'Customer', 2: 'Customer', 3: 'Writer', 6: 'Support' };
const CHAT_LABEL: Record<ChatId, string> = { writer: 'Writer chat', support: 'Support chat' };
const spacedCounter = (length: number, max: number) => `${length} / ${max}`;

/**
 * One chat. `replies`: the viewer writes and reads here (the writer in the writer chat, support in the
 * support chat); support sees the writer chat as it is, without replying or marking it read (the server
 * sends support's messages as direction 6 and moves support's read pointer in the support chat only).
 */
/** ADR 0089: the common answers, one choice away; the text lands in the composer to be read and sent. */
function CannedReplies({ firstName, onChoose }: { firstName: string; onChoose: (text: string) => void }) {
  const id = useId();
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        Canned reply
      </label>
      <select
        id={id}
        className={`${inputClass} w-auto max-w-full`}
        value=""
        onChange={(event) => {
          const reply = CANNED_REPLIES.find((r) => r.id === event.target.value);
          if (reply) onChoose(cannedReplyText(reply.text, firstName));
        }}
      >
        <option value="">Choose an answer…</option>
        {CANNED_REPLIES.map((r) => (
          <option key={r.id} value={r.id}>
            {r.label}
          </option>
        ))}
      </select>
    </div>
  );
}

function Conversation({
  orderId,
  chatId,
  active,
  replies,
  customerFirstName,
}: {
  orderId: number;
  chatId: ChatId;
  active: boolean;
  replies: boolean;
  customerFirstName: string;
}) {
  const [insert, setInsert] = useState<{ text: string; seq: number } | undefined>(undefined);
  const list = useRef<HTMLDivElement>(null);
  const session = useChatSession();
  const send = useChatSend();
  const status = useConnectionStatus();
  const chat = useMessageWindow('staff', orderId);
  const outbox = useOutboxEntries(orderId);
  const progress = useUploadProgress();
  const typing = useTyping(orderId, chatId);
  const data = chat.data;
  const messages = (data?.messages ?? []).filter((m) => chatOfDirection(m.direction.id) === chatId);
  const known = new Set(messages.map((m) => m.clientId));
  const pending = outbox.filter((p) => p.chat === chatId && !known.has(p.clientId));
  const unseenKey = unreadIdsOf(messages, chatId, 'staff').join(',');

  // Read only when seen: this chat on screen in a visible tab (batched by the engine).
  const markSeen = useReadReceipts('staff', orderId);
  useEffect(() => {
    if (!active || !replies || unseenKey === '') return undefined;
    const ids = unseenKey.split(',').map(Number);
    const mark = () => {
      if (document.visibilityState === 'visible') markSeen(ids);
    };
    mark();
    document.addEventListener('visibilitychange', mark);
    return () => document.removeEventListener('visibilitychange', mark);
  }, [active, replies, unseenKey, markSeen]);

  // Scroll: to the newest on arrival when the reader was at the bottom; kept in place when older ones come in.
  const firstId = messages[0]?.id;
  const lastId = messages.at(-1)?.id;
  const scroll = useRef({ firstId, lastId, height: 0, atBottom: true });
  useLayoutEffect(() => {
    const el = list.current;
    if (!el) return;
    const before = scroll.current;
    if (before.firstId !== undefined && firstId !== before.firstId && lastId === before.lastId) {
      el.scrollTop += el.scrollHeight - before.height;
    } else if (before.atBottom || lastId !== before.lastId) {
      if (before.atBottom) el.scrollTop = el.scrollHeight;
    }
    scroll.current = { firstId, lastId, height: el.scrollHeight, atBottom: before.atBottom };
  }, [firstId, lastId, pending.length]);

  return (
    <div className="flex flex-col gap-3">
      <div
        ref={list}
        role="log"
        aria-live="polite"
        aria-label={CHAT_LABEL[chatId]}
        // A scrolling region must be reachable by keyboard to scroll it (WCAG 2.1.1, axe scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        data-focus-inset
        className="flex h-96 flex-col gap-2 overflow-y-auto rounded-md border border-slate-200 bg-white p-3 max-lg:h-80"
        onScroll={(event) => {
          const el = event.currentTarget;
          scroll.current.atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
          scroll.current.height = el.scrollHeight;
          if (el.scrollTop < 40 && data?.hasOlder && !chat.loadingOlder) void chat.loadOlder();
        }}
      >
        {data?.hasOlder && (
          <div className="flex justify-center">
            <Button variant="ghost" busy={chat.loadingOlder} onClick={() => void chat.loadOlder()}>
              Load older messages
            </Button>
          </div>
        )}
        {chat.olderError !== null && <Alert tone="error">{errorMessage(chat.olderError)}</Alert>}
        {messages.length === 0 && pending.length === 0 ? (
          <p className="m-auto text-sm text-slate-700">No messages in this chat yet.</p>
        ) : (
          <ol className="flex flex-col gap-2" aria-label="Messages">
            {messages.map((m) => (
              <li key={m.id}>
                <MessageBubble
                  message={m}
                  own={isOwn(m.direction.id, 'staff')}
                  author={m.senderName ?? AUTHOR[m.direction.id] ?? 'Staff'}
                  time={formatDateTime(m.dateCreated)}
                  fileUrl={(fileId) => messageFileUrl('staff', orderId, fileId)}
                />
              </li>
            ))}
            {pending.map((p) => (
              <li key={p.clientId}>
                <PendingBubble
                  entry={p}
                  percent={progress.get(p.clientId)}
                  offline={status !== null && status !== 'open'}
                  failedLabel="Failed"
                  onRetry={() => session?.retry(p.clientId)}
                  onCancel={() => session?.cancel(p.clientId)}
                />
              </li>
            ))}
          </ol>
        )}
      </div>
      <p className="min-h-5 text-sm text-slate-700" aria-live="polite">
        {typing ? 'The customer is typing…' : ''}
      </p>
      {replies && (
        <CannedReplies firstName={customerFirstName} onChoose={(text) => setInsert((prev) => ({ text, seq: (prev?.seq ?? 0) + 1 }))} />
      )}
      {replies ? (
        <Composer
          insert={insert}
          counterpart="the customer"
          counter={spacedCounter}
          onSend={({ body, files }) => send({ orderId, chat: chatId, payload: { kind: 'text', body }, files })}
          onTyping={(signal) => session?.sendTyping(orderId, chatId, signal)}
        />
      ) : (
        <p className="border-t border-slate-200 pt-3 text-sm text-slate-700">
          The writer’s conversation with the customer. Only the writer replies here.
        </p>
      )}
    </div>
  );
}

/**
 * ADR 0059: the order's chats as staff sees them. Support has both (tabs); a writer only the writer chat.
 * History with older pages, live customer messages, typing and read state over the staff socket.
 */
export function OrderChatPanel({ orderId, role, customerFirstName = '' }: { orderId: number; role: number; customerFirstName?: string }) {
  const chat = useMessageWindow('staff', orderId);
  const status = useConnectionStatus();
  // The domain's rule (the chat server's too): a writer sees the writer chat; support both, answering in support's.
  const chats = chatsSeenBy(role);
  const own = staffChatOf(role);
  const [open, setOpen] = useState<ChatId>(own);
  const messages = chat.data?.messages ?? [];
  const badge = (chatId: ChatId) => {
    const n = unreadIdsOf(messages, chatId, 'staff').length;
    return n > 0 ? (
      <span className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white">
        {n}
        <span className="sr-only"> unread</span>
      </span>
    ) : undefined;
  };
  const conversation = (chatId: ChatId) => (
    <Conversation
      orderId={orderId}
      chatId={chatId}
      active={chats.length === 1 || open === chatId}
      replies={chatId === own}
      customerFirstName={customerFirstName}
    />
  );

  return (
    <section aria-labelledby={`chat-${orderId}`} className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`chat-${orderId}`} className="text-base font-semibold">
          Messages
        </h2>
        {status !== 'open' && (
          <span className="inline-flex items-center gap-2 text-xs text-slate-700" role="status">
            <Spinner className="size-3" /> Connecting to live updates…
          </span>
        )}
      </div>
      {chat.isPending ? (
        <div className="flex items-center gap-2 text-sm" role="status">
          <Spinner /> Loading messages…
        </div>
      ) : chat.isError ? (
        <Alert tone="error" title="Messages could not be loaded">
          {errorMessage(chat.error)}
        </Alert>
      ) : chats.length > 1 ? (
        <Tabs
          label="Chats"
          value={open}
          onValueChange={setOpen}
          items={[own, ...chats.filter((c) => c !== own)].map((chatId) => ({
            value: chatId,
            label: CHAT_LABEL[chatId],
            badge: chatId === own ? badge(chatId) : undefined,
            content: conversation(chatId),
          }))}
        />
      ) : (
        <>
          <p className="text-sm text-slate-700">{CHAT_LABEL[own]}</p>
          {conversation(own)}
        </>
      )}
    </section>
  );
}
