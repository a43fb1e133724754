-- ADR 0089 (issue 26): the back office. A writer's workload settings, and the indexes support's views
-- count and list with.

-- A writer's capacity (orders in work at once) and availability; a writer without a row takes the
-- defaults (5, available). Written only by the staff module.
CREATE TABLE writer_profiles (
  writer_id integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  capacity smallint NOT NULL DEFAULT 5 CHECK (capacity BETWEEN 0 AND 100),
  available boolean NOT NULL DEFAULT true,
  updated_at timestamptz NOT NULL
);

-- The views over orders in work (paid, in progress, on hold): due within 24 h and overdue read a
-- deadline range of these only, however many completed orders the table holds.
CREATE INDEX orders_in_work_deadline_idx ON orders (deadline, id) WHERE status_id IN (2, 3, 9);

-- "Writer silent": a writer's last message in an order's writer chat (the latest by sequence).
CREATE INDEX messages_order_writer_side_idx ON messages (order_id, sequence DESC) WHERE direction = 3;
-- "Waiting for support": an order's support chat, latest first.
CREATE INDEX messages_order_support_idx ON messages (order_id, sequence DESC) WHERE chat = 'support';

-- The writer list's on-time rate: an order's first delivery (the earliest delivered_at).
CREATE INDEX order_deliveries_first_idx ON order_deliveries (order_id, delivered_at);

-- Support's actions on money that did not settle its order (ADR 0089): applied to its order, or refunded
-- (through the one refund use case, ADR 0072), and by whom.
ALTER TABLE unapplied_payments
  ADD COLUMN resolution text CHECK (resolution IN ('applied', 'refunded')),
  ADD COLUMN resolved_by integer REFERENCES users (id);
