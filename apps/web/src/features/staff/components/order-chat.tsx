import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { Paperclip, Send, X } from 'lucide';
import {
  CHAT_MESSAGE,
  chatOfDirection,
  chatsSeenBy,
  isCustomerDirection,
  MESSAGE_BODY_MAX_LENGTH,
  MESSAGE_FILES_MAX,
  MESSAGE_STATE,
  messageBodyProblem,
  staffChatOf,
  type ChatId,
} from '@app/domain/chat/rules';
import type { ChatMessage } from '@app/domain/chat';
import { validateMessengerFile } from '@app/domain/files/rules';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { inputClass } from '@/components/ui/input';
import { ProgressBar } from '@/components/ui/progress-bar';
import { Spinner } from '@/components/ui/spinner';
import { Tabs } from '@/components/ui/tabs';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { messageFileUrl } from '@/lib/chat/api';
import {
  useChatSession,
  useConnectionStatus,
  useMessageWindow,
  useOutboxEntries,
  useReadReceipts,
  useTyping,
  useUploadProgress,
} from '@/lib/chat/hooks';
import type { OutboxEntry } from '@/lib/chat/outbox';
import { IDLE_TYPING, OWN_TYPING_IDLE_MS, onKeystroke, onStop, type OwnTypingState } from '@/lib/chat/typing';
import { unreadIdsOf } from '@/lib/chat/unread';
import { formatDateTime } from '@/lib/dates';
import { downloadFile } from '@/lib/download';

const AUTHOR: Record<number, string> = { 1: 'Customer', 2: 'Customer', 3: 'Writer', 6: 'Support' };
const CHAT_LABEL: Record<ChatId, string> = { writer: 'Writer chat', support: 'Support chat' };

/** SPEC §5 file rules (the domain's, as the server checks them) and ADR 0047's files per message. */
const fileProblem = (files: readonly File[]): string | null => {
  if (files.length > MESSAGE_FILES_MAX) return CHAT_MESSAGE.tooManyFiles;
  for (const file of files) {
    const problem = validateMessengerFile(file);
    if (problem) return `${file.name}: ${problem}`;
  }
  return null;
};

function MessageFiles({ orderId, message }: { orderId: number; message: ChatMessage }) {
  const [progress, setProgress] = useState<Record<number, number>>({});
  if (message.files.length === 0) return null;
  return (
    <ul className="mt-1 flex flex-col gap-1">
      {message.files.map((file) => (
        <li key={file.id} className="flex flex-col gap-1">
          <button
            type="button"
            className="text-left text-sm font-medium underline underline-offset-2"
            onClick={() => {
              setProgress((p) => ({ ...p, [file.id]: 0 }));
              downloadFile({ ...file, url: messageFileUrl('staff', orderId, file.id) }, (value) =>
                setProgress((p) => ({ ...p, [file.id]: value })),
              )
                .catch((error: unknown) => toast.error(errorMessage(error)))
                .finally(() => setProgress(({ [file.id]: _done, ...rest }) => rest));
            }}
          >
            {file.name}
          </button>
          {progress[file.id] !== undefined && <ProgressBar value={progress[file.id] ?? 0} label={`Downloading ${file.name}`} />}
        </li>
      ))}
    </ul>
  );
}

function Bubble({ orderId, message }: { orderId: number; message: ChatMessage }) {
  const fromCustomer = isCustomerDirection(message.direction.id);
  const read = message.state.id === MESSAGE_STATE.read;
  return (
    <li className={`flex ${fromCustomer ? 'justify-start' : 'justify-end'}`} data-message-id={message.id}>
      <div
        className={`max-w-[85%] rounded-lg px-3 py-2 text-sm ${fromCustomer ? 'bg-slate-100 text-slate-900' : 'bg-sky-50 text-slate-900 ring-1 ring-sky-200'}`}
      >
        <p className="text-xs font-semibold text-slate-700">
          {AUTHOR[message.direction.id] ?? 'Staff'} · <time dateTime={message.dateCreated}>{formatDateTime(message.dateCreated)}</time>
        </p>
        {message.body !== '' && <p className="break-words whitespace-pre-wrap">{message.body}</p>}
        {message.emoji !== null && (
          <p className="text-2xl" aria-label={`Emoji ${message.emoji}`}>
            {message.emoji}
          </p>
        )}
        {message.sticker !== null && <p className="italic">Sticker {message.sticker}</p>}
        <MessageFiles orderId={orderId} message={message} />
        {!fromCustomer && <p className="mt-1 text-right text-xs text-slate-700">{read ? 'Read' : 'Sent'}</p>}
      </div>
    </li>
  );
}

function PendingBubble({ entry, percent }: { entry: OutboxEntry; percent: number | undefined }) {
  const session = useChatSession();
  const body = entry.payload.kind === 'text' ? entry.payload.body : '';
  const files = entry.files ?? [];
  return (
    <li className="flex justify-end">
      <div className="flex max-w-[85%] flex-col gap-1 rounded-lg bg-sky-50 px-3 py-2 text-sm ring-1 ring-sky-200">
        {body !== '' && <p className="break-words whitespace-pre-wrap">{body}</p>}
        {files.length > 0 && <p className="text-xs">{files.map((f) => f.name).join(', ')}</p>}
        {entry.status !== 'failed' ? (
          <>
            {files.length > 0 && <ProgressBar value={percent ?? 0} label="Sending attachments" />}
            <p className="text-right text-xs text-slate-700">Sending…</p>
          </>
        ) : (
          <div className="flex flex-wrap items-center justify-end gap-2 text-xs">
            <span className="text-red-800">Failed: {entry.error}</span>
            <Button variant="secondary" className="px-2! py-1! text-xs!" onClick={() => session?.retry(entry.clientId)}>
              Retry
            </Button>
            <Button variant="ghost" className="px-2! py-1! text-xs!" onClick={() => session?.cancel(entry.clientId)}>
              Discard
            </Button>
          </div>
        )}
      </div>
    </li>
  );
}

function Composer({ orderId, chatId }: { orderId: number; chatId: ChatId }) {
  const session = useChatSession();
  const id = useId();
  const typing = useRef<OwnTypingState>(IDLE_TYPING);
  const idleTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const stopTyping = () => {
    if (idleTimer.current !== null) clearTimeout(idleTimer.current);
    idleTimer.current = null;
    const next = onStop(typing.current);
    typing.current = next.state;
    if (next.signal) session?.sendTyping(orderId, chatId, next.signal);
  };
  const typed = (value: string) => {
    const next = onKeystroke(typing.current, value, Date.now());
    typing.current = next.state;
    if (next.signal) session?.sendTyping(orderId, chatId, next.signal);
    if (idleTimer.current !== null) clearTimeout(idleTimer.current);
    idleTimer.current = value.trim() === '' ? null : setTimeout(stopTyping, OWN_TYPING_IDLE_MS);
  };
  const [body, setBody] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const submit = () => {
    const text = body.trim();
    const issue = messageBodyProblem(text, files.length > 0) ?? fileProblem(files);
    if (issue) {
      setProblem(issue);
      return;
    }
    setProblem(null);
    stopTyping();
    session?.send({ orderId, chat: chatId, payload: { kind: 'text', body: text }, files });
    setBody('');
    setFiles([]);
    if (fileInput.current) fileInput.current.value = '';
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
  };
  const over = body.length > MESSAGE_BODY_MAX_LENGTH;
  return (
    <form
      className="flex flex-col gap-2 border-t border-slate-200 pt-3"
      aria-label={`Reply in the ${CHAT_LABEL[chatId].toLowerCase()}`}
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <label htmlFor={`${id}-text`} className="text-sm font-medium text-slate-800">
        Message to the customer
      </label>
      <textarea
        id={`${id}-text`}
        rows={3}
        className={`${inputClass} resize-y`}
        value={body}
        aria-invalid={problem || over ? true : undefined}
        aria-describedby={`${id}-count${problem ? ` ${id}-problem` : ''}`}
        onChange={(event) => {
          setBody(event.target.value);
          typed(event.target.value);
        }}
        onBlur={stopTyping}
        onKeyDown={onKeyDown}
      />
      <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-slate-700">
        <span>Enter sends, Shift+Enter starts a new line.</span>
        <span id={`${id}-count`} className={over ? 'font-semibold text-red-800' : undefined}>
          {body.length} / {MESSAGE_BODY_MAX_LENGTH}
        </span>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="text-sm text-red-700" role="alert">
          {problem}
        </p>
      )}
      {files.length > 0 && (
        <ul aria-label="Attachments" className="flex flex-wrap gap-2">
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2 py-1 text-xs">
              {file.name}
              <button
                type="button"
                className="rounded-full p-0.5 hover:bg-slate-200"
                aria-label={`Remove ${file.name}`}
                onClick={() => setFiles((list) => list.filter((_, i) => i !== index))}
              >
                <Icon icon={X} className="size-3" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="flex items-center justify-between gap-2">
        <label className="inline-flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium focus-within:outline-2 focus-within:outline-sky-700 hover:bg-slate-100">
          <Icon icon={Paperclip} className="size-4" />
          Attach files
          <input
            ref={fileInput}
            type="file"
            multiple
            className="sr-only"
            onChange={(event) => setFiles((list) => [...list, ...Array.from(event.target.files ?? [])])}
          />
        </label>
        <Button type="submit">
          <Icon icon={Send} className="size-4" />
          Send
        </Button>
      </div>
    </form>
  );
}

/**
 * One chat. `replies`: the viewer writes and reads here (the writer in the writer chat, support in the
 * support chat); support sees the writer chat as it is, without replying or marking it read (the server
 * sends support's messages as direction 6 and moves support's read pointer in the support chat only).
 */
function Conversation({ orderId, chatId, active, replies }: { orderId: number; chatId: ChatId; active: boolean; replies: boolean }) {
  const list = useRef<HTMLDivElement>(null);
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
              <Bubble key={m.id} orderId={orderId} message={m} />
            ))}
            {pending.map((p) => (
              <PendingBubble key={p.clientId} entry={p} percent={progress.get(p.clientId)} />
            ))}
          </ol>
        )}
      </div>
      <p className="min-h-5 text-sm text-slate-700" aria-live="polite">
        {typing ? 'The customer is typing…' : ''}
      </p>
      {replies ? (
        <Composer orderId={orderId} chatId={chatId} />
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
export function OrderChatPanel({ orderId, role }: { orderId: number; role: number }) {
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
    <Conversation orderId={orderId} chatId={chatId} active={chats.length === 1 || open === chatId} replies={chatId === own} />
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
