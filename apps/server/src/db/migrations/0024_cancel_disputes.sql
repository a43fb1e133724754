-- Issue 24 "Cancel and disputes, with the money shown" (ADR 0087). The disputes module owns the new tables;
-- the orders module still owns `orders` and its history, the delivery module the timeline.

-- The customer's own cancel is a move of the transition table (`cancellation`).
ALTER TABLE order_status_history DROP CONSTRAINT order_status_history_via_check,
  ADD CONSTRAINT order_status_history_via_check
    CHECK (via IN ('creation', 'support', 'payment', 'assignment', 'refund', 'acceptance', 'review_clock', 'cancellation'));

-- A cancel, a dispute and its outcome land on the order's timeline (with 0023's 'upgraded').
ALTER TABLE order_events DROP CONSTRAINT order_events_type_check,
  ADD CONSTRAINT order_events_type_check
    CHECK (type IN ('delivered', 'changes_requested', 'review_extended', 'accepted', 'auto_completed',
      'extension_proposed', 'extension_accepted', 'extension_declined', 'extension_expired',
      'upgraded', 'canceled', 'dispute_opened', 'dispute_resolved', 'deadline_extended'));

-- A dispute: the customer's reason (from the list), description and files; support's one outcome.
CREATE TABLE order_disputes (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  customer_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reason text NOT NULL CHECK (reason IN ('cancel_request', 'late', 'quality', 'instructions', 'originality', 'communication', 'other')),
  description text NOT NULL CHECK (char_length(description) BETWEEN 1 AND 5000),
  -- What a cancel request asks for (the policy's share when it was opened), in cents.
  requested_refund_cents integer CHECK (requested_refund_cents >= 0),
  answer_by timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  outcome text CHECK (outcome IN ('extend', 'reassign', 'partial_refund', 'full_refund', 'no_action')),
  resolution_message text CHECK (char_length(resolution_message) <= 2000),
  refund_cents integer CHECK (refund_cents > 0),
  new_deadline timestamptz,
  new_writer_id integer REFERENCES users (id) ON DELETE SET NULL,
  resolved_by integer REFERENCES users (id) ON DELETE SET NULL,
  resolved_at timestamptz,
  CHECK ((status = 'open') = (outcome IS NULL)),
  CHECK ((status = 'open') = (resolved_at IS NULL))
);
-- One open dispute per order: two racing openings make one.
CREATE UNIQUE INDEX order_disputes_one_open ON order_disputes (order_id) WHERE status = 'open';
CREATE INDEX order_disputes_order_idx ON order_disputes (order_id, id);
-- Support's queue: the open ones, oldest answer-by first.
CREATE INDEX order_disputes_queue_idx ON order_disputes (status, answer_by, id);

-- The files a dispute carries: customer files of the order, uploaded through the one upload path.
CREATE TABLE order_dispute_files (
  file_id integer PRIMARY KEY REFERENCES order_files (id) ON DELETE CASCADE,
  dispute_id integer NOT NULL REFERENCES order_disputes (id) ON DELETE CASCADE
);
CREATE INDEX order_dispute_files_dispute_idx ON order_dispute_files (dispute_id);
