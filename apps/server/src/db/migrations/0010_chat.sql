-- The messenger (issue 10, SPEC §3 "Message", CONTRACT "Chat", ADR 0047, 0048). PostgreSQL is the record:
-- every socket frame is read from these tables, Redis (when configured) only wakes other instances.

-- The order's last message sequence. Taking the next one locks this row until the message's transaction
-- ends, so an order's messages get sequences 1, 2, 3 … with no gap, and ids that grow with them.
CREATE TABLE chat_sequences (
  order_id integer PRIMARY KEY REFERENCES orders (id) ON DELETE CASCADE,
  last_sequence integer NOT NULL
);

-- Both chats of an order in one list. customer_id repeats the order's owner so every customer query
-- carries it in its WHERE (DESIGN rule 3).
CREATE TABLE messages (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  customer_id integer NOT NULL REFERENCES users (id),
  sequence integer NOT NULL CHECK (sequence > 0),
  chat text NOT NULL CHECK (chat IN ('writer', 'support')),
  direction smallint NOT NULL CHECK (direction IN (1, 2, 3, 6)),
  sender_id integer NOT NULL REFERENCES users (id),
  body text NOT NULL DEFAULT '' CHECK (length(body) <= 1500),
  sticker smallint CHECK (sticker BETWEEN 1 AND 5),
  emoji text,
  -- the Idempotency-Key the sender gave (the client's id of the message)
  client_id text CHECK (length(client_id) <= 64),
  created_at timestamptz NOT NULL,
  CHECK ((chat = 'writer') = (direction IN (1, 3))),
  UNIQUE (order_id, sequence)
);
-- CONTRACT "Chat": the same key again, from the same sender on the same order, is the same message.
CREATE UNIQUE INDEX messages_client_id_idx ON messages (order_id, sender_id, client_id) WHERE client_id IS NOT NULL;
CREATE INDEX messages_customer_order_idx ON messages (customer_id, order_id, id);
CREATE INDEX messages_order_chat_idx ON messages (order_id, chat, sequence);

-- Attachments, stored through lib/file-storage.ts like order files (the orphan sweep knows these keys).
CREATE TABLE message_files (
  id serial PRIMARY KEY,
  message_id integer NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  customer_id integer NOT NULL REFERENCES users (id),
  uploaded_by integer NOT NULL REFERENCES users (id),
  name text NOT NULL,
  type_name text NOT NULL,
  size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
  storage_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL
);
CREATE INDEX message_files_message_idx ON message_files (message_id, id);
CREATE INDEX message_files_uploader_idx ON message_files (uploaded_by);

-- Read pointers (ADR 0047): per order, chat and reader, the last sequence read. They only move forward
-- (GREATEST on every update), so unread counts are a count of messages past them and cannot drift.
-- reader: the customer, or the staff side of the chat (the writer chat's writer, the support team).
CREATE TABLE chat_read_pointers (
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  chat text NOT NULL CHECK (chat IN ('writer', 'support')),
  reader text NOT NULL CHECK (reader IN ('customer', 'writer', 'support')),
  last_read_sequence integer NOT NULL DEFAULT 0,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (order_id, chat, reader)
);

-- The unseen-message mail job (ADR 0048): one row per order chat. due_at is set when a staff message
-- waits to be seen (its time plus 5 minutes, or an hour after the last mail); the job claims due rows
-- with a lease, so a restart resumes and two instances never take the same row.
CREATE TABLE chat_unseen_mail (
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  chat text NOT NULL CHECK (chat IN ('writer', 'support')),
  due_at timestamptz,
  claimed_until timestamptz,
  last_mailed_at timestamptz,
  last_mailed_sequence integer NOT NULL DEFAULT 0,
  mails_sent integer NOT NULL DEFAULT 0,
  PRIMARY KEY (order_id, chat)
);
CREATE INDEX chat_unseen_mail_due_idx ON chat_unseen_mail (due_at) WHERE due_at IS NOT NULL;
