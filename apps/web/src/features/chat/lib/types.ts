/** A message as the chat feature holds it (normalised from the wire in api/messages.ts). */
export interface ChatFile {
  id: number;
  name: string;
  typeName?: string | undefined;
  size?: number | undefined;
}

export interface ChatMessage {
  /** the server's id; ids grow with every message stored (CONTRACT "Chat": `?after=` reads on from one) */
  id: number;
  dateCreated: string;
  /** SPEC §3: 1 customer to writer, 2 customer to support, 3 writer to customer, 6 support to customer */
  direction: number;
  /** SPEC §3: 1 unread, 2 read */
  state: number;
  body: string;
  sticker: number | null;
  emoji: string | null;
  files: ChatFile[];
  /** the Idempotency-Key the customer's client sent it with, when the server echoes it */
  clientId?: string | undefined;
}

/** What the cache holds for one order: both chats in one list, oldest first (CONTRACT "Chat"). */
export interface MessageWindow {
  messages: ChatMessage[];
  /** false once a `?before=` page came back shorter than asked: nothing older exists */
  hasOlder: boolean;
}
