import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Popover } from 'radix-ui';
import { Paperclip, SendHorizontal, Smile, Sticker as StickerIcon, X } from 'lucide';
import {
  CHAT_MESSAGE,
  EMOJI,
  MESSAGE_BODY_MAX_LENGTH,
  MESSAGE_FILE_EXTENSIONS,
  MESSAGE_FILES_MAX,
  messageBodyLength,
  messageBodyProblem,
} from '@app/domain/chat/rules';
import { validateMessengerFile } from '@app/domain/files/rules';
import { FileDropZone } from '@/components/ui/file-drop-zone';
import { Icon } from '@/components/ui/icon';
import { readStored, writeStored } from '@/lib/persisted';
import { IDLE_TYPING, OWN_TYPING_IDLE_MS, onKeystroke, onStop, type OwnTypingState } from '@/lib/chat/typing';
import { Emoji, EMOJI_CREDIT } from './emoji';
import { Sticker, STICKERS } from './stickers';

/** The typing throttle's clock (a function of its own: called from handlers, never while rendering). */
const clock = (): number => Date.now();

// Nothing a customer typed is lost on a refresh (DESIGN rule 9): the draft lives in localStorage.
const readDraft = (key: string | undefined): string => (key === undefined ? '' : (readStored(key) ?? ''));
const writeDraft = (key: string | undefined, text: string): void => {
  if (key !== undefined) writeStored(key, text === '' ? null : text);
};

const iconButton =
  'inline-flex size-10 items-center justify-center rounded-md text-slate-700 hover:bg-slate-200/70 focus-visible:outline-2 disabled:opacity-60';

const popoverClass = 'z-30 rounded-lg border border-slate-200 bg-white p-2 shadow-lg focus-visible:outline-2';

interface ComposerProps {
  /** who reads it, for the labels: "your writer", "support", "the customer" */
  counterpart: string;
  /** the counter as shown (the customer's "12/1500", the console's "12 / 1500") */
  counter?: (length: number, max: number) => string;
  /** keeps the draft in localStorage under this key (the customer's composer) */
  draftKey?: string;
  /** the emoji picker (the customer's) */
  emoji?: boolean;
  /** the sticker picker, each sent at once (the customer's) */
  onSticker?: ((id: number) => void) | undefined;
  onSend: (message: { body: string; files: File[] }) => void;
  onTyping: (signal: 'start' | 'stop') => void;
  /**
   * Shown above the composer inside the same drop zone (the customer's conversation, issue 27): files
   * dropped anywhere on the chat are attached to the message being written.
   */
  above?: ReactNode;
  /** ADR 0089: text put in from outside (the console's canned replies); each new `seq` replaces the text. */
  insert?: { text: string; seq: number } | undefined;
}

const compactCounter = (length: number, max: number) => `${length}/${max}`;

/**
 * The chat's composer, the customer's and the console's (ADR 0076): labels and abilities are props.
 * SPEC §5 "Chat": up to 1500 characters with a counter and SPEC's message past it; an empty message
 * without files is not sent. Enter sends, Shift+Enter breaks the line. The 39 emoji go into the text;
 * a sticker goes at once. The emoji are drawn from Twemoji (ADR 0095). Files up to 15 MB of the messenger's types (lib/upload.ts sends them). Typing
 * goes out by the one typing rule (lib/chat/typing.ts).
 */
export function Composer({
  counterpart,
  counter = compactCounter,
  draftKey,
  emoji = false,
  onSticker,
  onSend,
  onTyping,
  insert,
  above,
}: ComposerProps) {
  const key = draftKey;
  const [text, setText] = useState(() => readDraft(key));
  const [files, setFiles] = useState<File[]>([]);
  const [fileErrors, setFileErrors] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [emojiOpen, setEmojiOpen] = useState(false);
  const [stickerOpen, setStickerOpen] = useState(false);
  const textareaRef = useRef<HTMLTextAreaElement>(null);
  const typing = useRef<OwnTypingState>(IDLE_TYPING);
  const idleTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const ids = { text: useId(), counter: useId(), problem: useId() };

  const stopTyping = () => {
    if (idleTimer.current !== null) clearTimeout(idleTimer.current);
    idleTimer.current = null;
    const next = onStop(typing.current);
    typing.current = next.state;
    if (next.signal) onTyping(next.signal);
  };
  // Leaving the chat (or the page) ends the typing state staff sees.
  const stopRef = useRef(stopTyping);
  useEffect(() => {
    stopRef.current = stopTyping;
  });
  useEffect(() => () => stopRef.current(), []);

  const change = (value: string) => {
    setText(value);
    writeDraft(key, value);
    if (problem !== null && messageBodyProblem(value, files.length > 0) === null) setProblem(null);
    const next = onKeystroke(typing.current, value, clock());
    typing.current = next.state;
    if (next.signal) onTyping(next.signal);
    if (idleTimer.current !== null) clearTimeout(idleTimer.current);
    idleTimer.current = value.trim() === '' ? null : setTimeout(stopTyping, OWN_TYPING_IDLE_MS);
  };

  const changeRef = useRef(change);
  useEffect(() => {
    changeRef.current = change;
  });
  const insertSeq = insert?.seq;
  const insertText = insert?.text;
  useEffect(() => {
    if (insertSeq === undefined || insertText === undefined) return;
    changeRef.current(insertText);
    textareaRef.current?.focus();
  }, [insertSeq, insertText]);

  // The domain's rule decides (with files, only the length can be wrong); ADR 0068: characters are code
  // points, as the server counts them (an emoji is one).
  const length = messageBodyLength(text);
  const tooLong = messageBodyProblem(text, true) !== null;

  const send = () => {
    const found = messageBodyProblem(text, files.length > 0);
    if (found !== null) {
      setProblem(found);
      textareaRef.current?.focus();
      return;
    }
    onSend({ body: text, files });
    stopTyping();
    setText('');
    writeDraft(key, '');
    setFiles([]);
    setFileErrors([]);
    setProblem(null);
    textareaRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter breaks the line; never while an input method is composing a character.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  // ADR 0096: files picked or dropped on the composer, checked by the messenger's rules (SPEC §5 texts).
  const addFiles = (list: File[]): number => {
    const errors: string[] = [];
    const accepted: File[] = [];
    for (const file of list) {
      const error = validateMessengerFile(file);
      if (error) errors.push(`${file.name}: ${error}`);
      else accepted.push(file);
    }
    const next = [...files, ...accepted];
    if (next.length > MESSAGE_FILES_MAX) errors.push(CHAT_MESSAGE.tooManyFiles);
    setFiles(next.slice(0, MESSAGE_FILES_MAX));
    setFileErrors(errors);
    return Math.min(next.length, MESSAGE_FILES_MAX) - files.length;
  };

  const insertEmoji = (emoji: string) => {
    const area = textareaRef.current;
    const start = area?.selectionStart ?? text.length;
    const end = area?.selectionEnd ?? text.length;
    const value = `${text.slice(0, start)}${emoji}${text.slice(end)}`;
    change(value);
    setEmojiOpen(false);
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };

  const describedBy = [ids.counter, problem || tooLong ? ids.problem : null].filter(Boolean).join(' ');

  // ADR 0096: the whole composer takes dropped files (one drop zone); `openFiles` is its file dialog.
  const composer = (openFiles: () => void) => (
    <div className="flex flex-col gap-2 p-3">
      {files.length > 0 && (
        <ul aria-label="Files to send" className="flex flex-wrap gap-2">
          {files.map((file, index) => (
            <li
              key={`${file.name}-${index}`}
              className="flex max-w-full items-center gap-1 rounded-full bg-slate-100 py-1 pr-1 pl-3 text-sm text-slate-800"
            >
              <span className="truncate">{file.name}</span>
              <button
                type="button"
                className="inline-flex size-7 items-center justify-center rounded-full hover:bg-slate-200"
                aria-label={`Remove ${file.name}`}
                onClick={() => setFiles(files.filter((_, i) => i !== index))}
              >
                <Icon icon={X} className="size-4" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {fileErrors.length > 0 && (
        <ul role="alert" className="text-sm text-red-700">
          {fileErrors.map((error) => (
            <li key={error}>{error}</li>
          ))}
        </ul>
      )}
      <label htmlFor={ids.text} className="sr-only">
        Message to {counterpart}
      </label>
      <textarea
        id={ids.text}
        ref={textareaRef}
        value={text}
        rows={2}
        onChange={(event) => change(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={stopTyping}
        placeholder={`Write to ${counterpart}…`}
        aria-invalid={tooLong || problem !== null || undefined}
        aria-describedby={describedBy}
        className="max-h-48 min-h-16 w-full resize-y rounded-md border border-slate-400 px-3 py-2 text-base text-slate-900 placeholder:text-slate-600"
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-1">
          {emoji && (
            <Popover.Root open={emojiOpen} onOpenChange={setEmojiOpen}>
              <Popover.Trigger className={iconButton} aria-label="Insert an emoji">
                <Icon icon={Smile} className="size-5" />
              </Popover.Trigger>
              <Popover.Portal>
                <Popover.Content side="top" align="start" sideOffset={6} className={popoverClass} aria-label="Emoji">
                  <div role="group" aria-label="Emoji" className="grid grid-cols-8 gap-1">
                    {EMOJI.map((emoji) => (
                      <button
                        key={emoji}
                        type="button"
                        className="inline-flex size-9 items-center justify-center rounded text-xl hover:bg-slate-100"
                        onClick={() => insertEmoji(emoji)}
                        aria-label={`Insert ${emoji}`}
                      >
                        <Emoji emoji={emoji} decorative className="size-6" />
                      </button>
                    ))}
                  </div>
                  <p className="mt-1 text-right text-[0.6875rem] text-slate-700">{EMOJI_CREDIT}</p>
                </Popover.Content>
              </Popover.Portal>
            </Popover.Root>
          )}
          {onSticker && (
            <Popover.Root open={stickerOpen} onOpenChange={setStickerOpen}>
              <Popover.Trigger className={iconButton} aria-label="Send a sticker">
                <Icon icon={StickerIcon} className="size-5" />
              </Popover.Trigger>
              <Popover.Portal>
                <Popover.Content side="top" align="start" sideOffset={6} className={popoverClass} aria-label="Stickers">
                  <div role="group" aria-label="Stickers" className="grid grid-cols-5 gap-1">
                    {STICKERS.map((sticker) => (
                      <button
                        key={sticker.id}
                        type="button"
                        className="inline-flex size-14 items-center justify-center rounded hover:bg-slate-100"
                        aria-label={`Send sticker: ${sticker.name}`}
                        onClick={() => {
                          onSticker(sticker.id);
                          setStickerOpen(false);
                          textareaRef.current?.focus();
                        }}
                      >
                        <Sticker id={sticker.id} size={44} />
                      </button>
                    ))}
                  </div>
                </Popover.Content>
              </Popover.Portal>
            </Popover.Root>
          )}
          <button type="button" className={iconButton} aria-label="Attach files (up to 15 MB each)" onClick={openFiles}>
            <Icon icon={Paperclip} className="size-5" />
          </button>
        </div>
        <div className="flex items-center gap-3">
          <span id={ids.counter} className={`text-xs tabular-nums ${tooLong ? 'font-semibold text-red-700' : 'text-slate-700'}`}>
            {counter(length, MESSAGE_BODY_MAX_LENGTH)}
            <span className="sr-only"> characters</span>
          </span>
          <button
            type="button"
            onClick={send}
            disabled={tooLong}
            className="inline-flex items-center gap-2 rounded-md bg-primary px-4 py-2 text-sm font-medium text-on-primary hover:brightness-110 disabled:opacity-60"
          >
            <Icon icon={SendHorizontal} className="size-4" />
            Send
          </button>
        </div>
      </div>
      {(problem || tooLong) && (
        <p id={ids.problem} role="alert" className="text-sm text-red-700">
          {tooLong ? CHAT_MESSAGE.tooLong : problem}
        </p>
      )}
      <p className="sr-only">Enter sends, Shift+Enter starts a new line. Files dropped here are attached.</p>
    </div>
  );
  return (
    <FileDropZone
      variant="overlay"
      extensions={MESSAGE_FILE_EXTENSIONS}
      onFiles={addFiles}
      inputLabel="Files for the message"
      dropLabel="Drop files to attach them"
      className={above === undefined ? 'border-t border-slate-200 bg-white' : ''}
    >
      {above === undefined
        ? composer
        : (openFiles) => (
            <>
              {above}
              <div className="border-t border-slate-200 bg-white">{composer(openFiles)}</div>
            </>
          )}
    </FileDropZone>
  );
}
