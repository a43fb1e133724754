import { useState } from 'react';
import { Check, CheckCheck, Clock, Download, FileText, RotateCcw, Trash2 } from 'lucide';
import { Icon } from '@/components/ui/icon';
import { ProgressBar } from '@/components/ui/progress-bar';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';
import { messageFileUrl } from '@/lib/chat/api';
import type { OutboxEntry } from '@/lib/chat/outbox';
import type { ChatMessage, MessageFile } from '@app/domain/chat';
import { Sticker, stickerName } from './stickers';

const timeFormat = (timeZone: string) => new Intl.DateTimeFormat(undefined, { timeZone, hour: 'numeric', minute: '2-digit' });

function FileLink({ orderId, file }: { orderId: number; file: MessageFile }) {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      onClick={() => {
        setBusy(true);
        downloadFile({ id: file.id, name: file.name, size: file.size, url: messageFileUrl('customer', orderId, file.id) })
          .catch((error: unknown) => toast.error(errorMessage(error)))
          .finally(() => setBusy(false));
      }}
      className="flex max-w-full items-center gap-2 rounded-md border border-current/30 px-2 py-1 text-left text-sm underline-offset-2 hover:underline"
    >
      <Icon icon={FileText} className="size-4 shrink-0" />
      <span className="truncate">{file.name}</span>
      <Icon icon={Download} className="size-4 shrink-0" />
      <span className="sr-only">(download)</span>
    </button>
  );
}

function Content({
  body,
  sticker,
  emoji,
  children,
}: {
  body: string;
  sticker: number | null;
  emoji: string | null;
  children?: React.ReactNode;
}) {
  return (
    <>
      {sticker !== null && <Sticker id={sticker} size={96} label={`Sticker: ${stickerName(sticker)}`} />}
      {emoji !== null && (
        <span className="text-4xl leading-none" role="img" aria-label={`Emoji ${emoji}`}>
          {emoji}
        </span>
      )}
      {body !== '' && <p className="break-words whitespace-pre-wrap">{body}</p>}
      {children}
    </>
  );
}

const bubble = (own: boolean, plain: boolean) =>
  `flex max-w-[85%] flex-col gap-1 rounded-2xl px-3 py-2 text-sm sm:max-w-[75%] ${
    plain ? 'bg-transparent px-0' : own ? 'rounded-br-sm bg-primary text-on-primary' : 'rounded-bl-sm bg-slate-100 text-slate-900'
  }`;

/** One stored message. Own messages show "Sent" or "Read" (read by the other side, SPEC §3 state 2). */
export function MessageItem({
  message,
  own,
  sender,
  orderId,
  timeZone,
  observe,
}: {
  message: ChatMessage;
  own: boolean;
  sender: string;
  orderId: number;
  timeZone: string;
  observe?: ((element: Element | null) => void) | undefined;
}) {
  const plain = message.sticker !== null || (message.emoji !== null && message.body === '' && message.files.length === 0);
  const read = message.state.id === 2;
  return (
    <div ref={observe} data-message-id={message.id} className={`flex ${own ? 'justify-end' : 'justify-start'}`}>
      <div className={bubble(own, plain)}>
        <span className="sr-only">{own ? 'You' : sender}: </span>
        <Content body={message.body} sticker={message.sticker} emoji={message.emoji}>
          {message.files.map((file) => (
            <FileLink key={file.id} orderId={orderId} file={file} />
          ))}
        </Content>
        <span className={`flex items-center justify-end gap-1 text-xs ${own && !plain ? 'text-on-primary/90' : 'text-slate-700'}`}>
          <time dateTime={message.dateCreated}>{timeFormat(timeZone).format(new Date(message.dateCreated))}</time>
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
export function PendingItem({
  entry,
  percent,
  offline,
  onRetry,
  onCancel,
}: {
  entry: OutboxEntry;
  percent: number | undefined;
  offline: boolean;
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
          {entry.files?.map((file, index) => (
            <span key={`${file.name}-${index}`} className="flex items-center gap-2 text-sm">
              <Icon icon={FileText} className="size-4 shrink-0" />
              <span className="truncate">{file.name}</span>
            </span>
          ))}
          {hasFiles && !failed && percent !== undefined && (
            <ProgressBar value={percent} label={`Uploading ${entry.files?.[0]?.name ?? 'files'}`} />
          )}
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
          <span>Not sent: {entry.error}</span>
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
