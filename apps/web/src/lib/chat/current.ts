import type { ChatName } from './chats';
import type { ConnectionStatus } from './connection';
import type { OutboxEntry, OutboxPayload } from './outbox';
import type { ChatSide } from './side';
import { createStore, type Store } from './store';

/**
 * The tab's running chat session as the UI sees it (session.ts makes it; `startChatSession` sets it here).
 * The UI's hooks read this small module, so a screen does not load the session's code with its own: the
 * app and the console import session.ts when they start it.
 */
export interface ChatSession {
  side: ChatSide;
  status: Store<ConnectionStatus>;
  /** the other side's typing, by `${orderId}:${chat}`, with the time its last start came */
  typing: Store<ReadonlyMap<string, number>>;
  /** upload progress in percent, by client id */
  progress: Store<ReadonlyMap<string, number>>;
  outbox: Store<OutboxEntry[]>;
  start(): void;
  stop(): void;
  /** Writes a message into the outbox and sends it as soon as it can; answers its client id. */
  send(message: { orderId: number; chat: ChatName; payload: OutboxPayload; files?: File[] }): string;
  retry(clientId: string): void;
  /** Cancels an upload in flight, or drops a message that waits or failed. */
  cancel(clientId: string): void;
  /** Own typing (SPEC §4: a customer's 11 and 12, staff's 13 and 14). */
  sendTyping(orderId: number, chat: ChatName, signal: 'start' | 'stop'): void;
}

export const chatSessionStore = createStore<ChatSession | null>(null);
