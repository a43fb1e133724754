-- ADR 0066: the customer's unread counts kept on the order's sequence row. A send bumps the row it
-- already locks, a read moves the customer's position on it, and both answer the counts from that row:
-- no recount of the order's messages per message. The counts are still a difference of two positions
-- that only move forward (the staff messages sent, the staff messages read), so they cannot drift.

-- A staff message's place among the staff messages of its chat in its order: 1, 2, 3 … (null for the
-- customer's own messages).
ALTER TABLE messages ADD COLUMN staff_ordinal integer CHECK (staff_ordinal > 0);
ALTER TABLE messages ADD CONSTRAINT messages_staff_ordinal_of_staff CHECK ((staff_ordinal IS NULL) OR direction IN (3, 6));

-- Per order: the staff messages of each chat (the last ordinal given), the ordinal of the last one the
-- customer read in each chat, and a version that grows whenever the customer's counts change (the socket
-- hub never sends older counts after newer ones).
ALTER TABLE chat_sequences
  ADD COLUMN staff_writer integer NOT NULL DEFAULT 0,
  ADD COLUMN staff_support integer NOT NULL DEFAULT 0,
  ADD COLUMN customer_read_writer integer NOT NULL DEFAULT 0,
  ADD COLUMN customer_read_support integer NOT NULL DEFAULT 0,
  ADD COLUMN unread_version integer NOT NULL DEFAULT 0;
ALTER TABLE chat_sequences ADD CONSTRAINT chat_sequences_read_within
  CHECK (customer_read_writer BETWEEN 0 AND staff_writer AND customer_read_support BETWEEN 0 AND staff_support);

-- The messages stored before this migration.
UPDATE messages m SET staff_ordinal = o.n
  FROM (SELECT id, row_number() OVER (PARTITION BY order_id, chat ORDER BY sequence)::int AS n FROM messages WHERE direction IN (3, 6)) o
 WHERE m.id = o.id;
UPDATE chat_sequences s SET
  staff_writer = c.staff_writer,
  staff_support = c.staff_support,
  customer_read_writer = c.read_writer,
  customer_read_support = c.read_support
  FROM (
    SELECT m.order_id,
      COALESCE(max(m.staff_ordinal) FILTER (WHERE m.chat = 'writer'), 0) AS staff_writer,
      COALESCE(max(m.staff_ordinal) FILTER (WHERE m.chat = 'support'), 0) AS staff_support,
      COALESCE(max(m.staff_ordinal) FILTER (WHERE m.chat = 'writer' AND m.sequence <= COALESCE(p.last_read_sequence, 0)), 0) AS read_writer,
      COALESCE(max(m.staff_ordinal) FILTER (WHERE m.chat = 'support' AND m.sequence <= COALESCE(p.last_read_sequence, 0)), 0) AS read_support
    FROM messages m
    LEFT JOIN chat_read_pointers p ON p.order_id = m.order_id AND p.chat = m.chat AND p.reader = 'customer'
    WHERE m.staff_ordinal IS NOT NULL
    GROUP BY m.order_id) c
 WHERE s.order_id = c.order_id;
