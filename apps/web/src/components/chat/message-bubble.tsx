import type { ReactNode } from 'react';
import { Check, CheckCheck, Clock, RotateCcw, Trash2 } from 'lucide';
import { Icon } from '@/components/ui/icon';
import type { ChatMessage } from '@app/domain/chat';
import type { OutboxEntry } from '@/lib/chat/outbox';
import { Attachments, PendingAttachments } from './attachments';
import { Emoji, EmojiText } from './emoji';
import { Sticker, stickerName } from './stickers';

/**
 * The chat's message bubbles, the customer's and the console's (ADR 0076): who wrote it, how its time
 * reads and where its files download from are props. Own messages sit on the right and show "Sent" or
 * "Read" (read by the other side, SPEC §3 state 2). SPEC's emoji are drawn as pictures, files with their
 * sizes, pictures as thumbnails (ADR 0095).
 */
function Content({ body, sticker, emoji, children }: { body: string; sticker: number | null; emoji: string | null; children?: ReactNode }) {
  return (
    <>
      {sticker !== null && <Sticker id={sticker} size={96} label={`Sticker: ${stickerName(sticker)}`} />}
      {emoji !== null && (
        <span className="leading-none" role="img" aria-label={`Emoji ${emoji}`}>
          <Emoji emoji={emoji} decorative className="size-10" />
        </span>
      )}
      {body !== '' && (
        <p className="break-words whitespace-pre-wrap">
          <EmojiText text={body} />
        </p>
      )}
      {children}
    </>
  );
}

const bubble = (own: boolean, plain: boolean) =>
  `flex max-w-[85%] flex-col gap-1 rounded-2xl px-3 py-2 text-sm sm:max-w-[75%] ${
    plain ? 'bg-transparent px-0' : own ? 'rounded-br-sm bg-primary text-on-primary' : 'rounded-bl-sm bg-slate-100 text-slate-900'
  }`;

/** One stored message. */
export function MessageBubble({
  message,
  own,
  author,
  showAuthor = false,
  time,
  fileUrl,
  observe,
}: {
  message: ChatMessage;
  own: boolean;
  /** read before the message by a screen reader: "You", "Support", "Customer"; the writer's name (ADR 0095) */
  author: string;
  /** the author shown above the text too (the writer's name in the customer's writer chat) */
  showAuthor?: boolean;
  /** when it was sent, as the viewer reads it */
  time: string;
  fileUrl: (fileId: number) => string;
  observe?: ((element: Element | null) => void) | undefined;
}) {
  const plain = message.sticker !== null || (message.emoji !== null && message.body === '' && message.files.length === 0);
  const read = message.state.id === 2;
  return (
    <div ref={observe} data-message-id={message.id} className={`flex ${own ? 'justify-end' : 'justify-start'}`}>
      <div className={bubble(own, plain)}>
        {showAuthor ? (
          <span className="text-xs font-semibold text-slate-800">
            {author}
            <span className="sr-only">: </span>
          </span>
        ) : (
          <span className="sr-only">{author}: </span>
        )}
        <Content body={message.body} sticker={message.sticker} emoji={message.emoji}>
          <Attachments files={message.files} fileUrl={fileUrl} />
        </Content>
        <span className={`flex items-center justify-end gap-1 text-xs ${own && !plain ? 'text-on-primary/90' : 'text-slate-700'}`}>
          <time dateTime={message.dateCreated}>{time}</time>
          {own && (
            <>
              <Icon icon={read ? CheckCheck : Check} className="size-3.5" />
              <span>{read ? 'Read' : 'Sent'}</span>
            </>
          )}
        </span>
      </div>
    </div>
  );
}

/** A message of the outbox: sending (with the upload's progress and Cancel), or failed with Retry. */
export function PendingBubble({
  entry,
  percent,
  offline,
  failedLabel = 'Not sent',
  onRetry,
  onCancel,
}: {
  entry: OutboxEntry;
  percent: number | undefined;
  offline: boolean;
  /** before the server's reason of a refusal: the customer's "Not sent", the console's "Failed" */
  failedLabel?: string;
  onRetry: () => void;
  onCancel: () => void;
}) {
  const payload = entry.payload;
  const failed = entry.status === 'failed';
  const hasFiles = (entry.files?.length ?? 0) > 0;
  const plain = payload.kind === 'sticker';
  return (
    <div className="flex flex-col items-end gap-1">
      <div className={`${bubble(true, plain)} ${failed ? 'ring-2 ring-red-600' : ''}`}>
        <span className="sr-only">You: </span>
        <Content
          body={payload.kind === 'text' ? payload.body : ''}
          sticker={payload.kind === 'sticker' ? payload.sticker : null}
          emoji={payload.kind === 'emoji' ? payload.emoji : null}
        >
          {hasFiles && <PendingAttachments files={entry.files ?? []} percent={percent} sending={!failed} />}
        </Content>
        {!failed && (
          <span className={`flex items-center justify-end gap-1 text-xs ${plain ? 'text-slate-700' : 'text-on-primary/90'}`}>
            <Icon icon={Clock} className="size-3.5" />
            <span>{offline ? 'Waiting for connection' : 'Sending…'}</span>
          </span>
        )}
      </div>
      {failed && (
        <div role="alert" className="flex max-w-[85%] flex-wrap items-center justify-end gap-2 text-sm text-red-800">
          <span>
            {failedLabel}: {entry.error}
          </span>
          <button
            type="button"
            onClick={onRetry}
            className="inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-slate-900 hover:bg-slate-100"
          >
            <Icon icon={RotateCcw} className="size-4" /> Retry
          </button>
          <button
            type="button"
            onClick={onCancel}
            className="inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-2 py-1 text-slate-900 hover:bg-slate-100"
          >
            <Icon icon={Trash2} className="size-4" /> Delete
          </button>
        </div>
      )}
      {!failed && hasFiles && (
        <button type="button" onClick={onCancel} className="rounded-md px-2 py-1 text-sm text-slate-800 underline hover:no-underline">
          Cancel upload
        </button>
      )}
    </div>
  );
}
