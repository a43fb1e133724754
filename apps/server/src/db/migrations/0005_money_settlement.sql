-- Issue 8 (ADR 0034, 0035): money that cannot be faked or underpaid.

-- The ledger (attempts, their provider events, transactions) is never erased by a cascade: deleting an
-- order or a customer that has any of it is refused.
ALTER TABLE payments DROP CONSTRAINT payments_order_id_fkey,
  ADD CONSTRAINT payments_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders (id) ON DELETE RESTRICT;
ALTER TABLE payments DROP CONSTRAINT payments_customer_id_fkey,
  ADD CONSTRAINT payments_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES users (id) ON DELETE RESTRICT;
ALTER TABLE payment_events DROP CONSTRAINT payment_events_payment_id_fkey,
  ADD CONSTRAINT payment_events_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments (id) ON DELETE RESTRICT;
ALTER TABLE transactions DROP CONSTRAINT transactions_order_id_fkey,
  ADD CONSTRAINT transactions_order_id_fkey FOREIGN KEY (order_id) REFERENCES orders (id) ON DELETE RESTRICT;
ALTER TABLE transactions DROP CONSTRAINT transactions_customer_id_fkey,
  ADD CONSTRAINT transactions_customer_id_fkey FOREIGN KEY (customer_id) REFERENCES users (id) ON DELETE RESTRICT;
ALTER TABLE transactions DROP CONSTRAINT transactions_payment_id_fkey,
  ADD CONSTRAINT transactions_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments (id) ON DELETE RESTRICT;

-- Attempt states: an edit cancels the order's open attempts; money that may not settle its order parks
-- the attempt for support.
ALTER TABLE payments DROP CONSTRAINT payments_state_check,
  ADD CONSTRAINT payments_state_check CHECK (state IN ('created', 'pending', 'paid', 'declined', 'refunded', 'canceled', 'parked'));
-- What the attempt pays: the whole price of an unpaid order, or the difference a forced edit added.
ALTER TABLE payments ADD COLUMN kind text NOT NULL DEFAULT 'full' CHECK (kind IN ('full', 'difference'));

-- A forced edit (status 10) that raised a paid order's price: the difference still to pay, in cents.
ALTER TABLE orders ADD COLUMN amount_due_cents integer NOT NULL DEFAULT 0 CHECK (amount_due_cents >= 0);

-- Money that arrived and did not settle its order (one row per attempt), waiting for support.
CREATE TABLE unapplied_payments (
  payment_id text PRIMARY KEY REFERENCES payments (id) ON DELETE RESTRICT,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE RESTRICT,
  customer_id integer NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  provider text NOT NULL,
  event_id text NOT NULL,
  amount_cents integer NOT NULL CHECK (amount_cents >= 0),
  currency text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('attempt_canceled', 'attempt_declined', 'amount_mismatch', 'currency_mismatch', 'price_changed', 'order_not_payable')),
  received_at timestamptz NOT NULL,
  -- Set when support has dealt with it (refunded, or applied by hand).
  resolved_at timestamptz
);
CREATE INDEX unapplied_payments_open_idx ON unapplied_payments (received_at) WHERE resolved_at IS NULL;
CREATE INDEX unapplied_payments_order_idx ON unapplied_payments (order_id);

-- A forced edit that lowered a paid order's price: the difference support is to refund. At most one
-- open claim per order (a later edit changes its amount or withdraws it).
CREATE TABLE refund_claims (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE RESTRICT,
  customer_id integer NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'USD',
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'refunded', 'withdrawn')),
  -- The refund row written when support refunded it.
  transaction_id integer REFERENCES transactions (id) ON DELETE RESTRICT,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX refund_claims_one_open ON refund_claims (order_id) WHERE state = 'open';
