-- Issue 24 "Delivery and acceptance", "Deadlines that move only with consent" (ADR 0084). The delivery
-- module owns these tables; the orders module still owns `orders` (status, deadline, completed_at).

-- The customer's acceptance and the review clock's end are moves of the transition table too.
ALTER TABLE order_status_history DROP CONSTRAINT order_status_history_via_check,
  ADD CONSTRAINT order_status_history_via_check
    CHECK (via IN ('creation', 'support', 'payment', 'assignment', 'refund', 'acceptance', 'review_clock'));

-- A delivery: the writer's (or support's) explicit "this is the work", with a message and the writer files
-- uploaded since the previous one. One at a time awaits review; the review clock is review_by (null once
-- it stopped: changes asked for, accepted).
CREATE TABLE order_deliveries (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  delivered_by integer REFERENCES users (id),
  delivered_by_role smallint,
  message text NOT NULL DEFAULT '' CHECK (char_length(message) <= 5000),
  delivered_at timestamptz NOT NULL,
  review_by timestamptz,
  state text NOT NULL DEFAULT 'awaiting_review'
    CHECK (state IN ('awaiting_review', 'changes_requested', 'accepted', 'auto_completed')),
  review_extended boolean NOT NULL DEFAULT false,
  answered_at timestamptz,
  CHECK (state <> 'awaiting_review' OR review_by IS NOT NULL)
);
CREATE UNIQUE INDEX order_deliveries_one_awaiting ON order_deliveries (order_id) WHERE state = 'awaiting_review';
CREATE INDEX order_deliveries_order_idx ON order_deliveries (order_id, id);
-- The review clock's job reads the due ones only.
CREATE INDEX order_deliveries_due_idx ON order_deliveries (review_by) WHERE state = 'awaiting_review';

-- Which writer files a delivery carries: each file belongs to one delivery at most.
CREATE TABLE order_delivery_files (
  file_id integer PRIMARY KEY REFERENCES order_files (id) ON DELETE CASCADE,
  delivery_id integer NOT NULL REFERENCES order_deliveries (id) ON DELETE CASCADE
);
CREATE INDEX order_delivery_files_delivery_idx ON order_delivery_files (delivery_id);

-- A proposed deadline: the customer accepts or declines it before answer_by; silence is a decline
-- ('expired'), and support is alerted (support_alert_at, until support dismisses it).
CREATE TABLE order_extensions (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  proposed_by integer REFERENCES users (id),
  proposed_by_role smallint,
  previous_deadline timestamptz NOT NULL,
  deadline timestamptz NOT NULL CHECK (deadline > previous_deadline),
  reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 1000),
  answer_by timestamptz NOT NULL,
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'accepted', 'declined', 'expired')),
  answered_at timestamptz,
  support_alert_at timestamptz,
  support_seen_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX order_extensions_one_open ON order_extensions (order_id) WHERE state = 'open';
CREATE INDEX order_extensions_due_idx ON order_extensions (answer_by) WHERE state = 'open';
CREATE INDEX order_extensions_alert_idx ON order_extensions (support_alert_at) WHERE support_alert_at IS NOT NULL AND support_seen_at IS NULL;

-- The order's timeline besides its status changes: deliveries, answers, proposals (ADR 0084).
CREATE TABLE order_events (
  id bigserial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('delivered', 'changes_requested', 'review_extended', 'accepted', 'auto_completed',
    'extension_proposed', 'extension_accepted', 'extension_declined', 'extension_expired')),
  actor_id integer REFERENCES users (id),
  actor_role smallint,
  deadline timestamptz,
  note text CHECK (char_length(note) <= 5000),
  created_at timestamptz NOT NULL
);
CREATE INDEX order_events_order_idx ON order_events (order_id, id);
