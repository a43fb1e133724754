-- Issue 4: payment attempts, provider events (exactly once) and the customer's transactions.

-- One row per checkout (SPEC §7 redirect). id is random and unguessable: the sandbox page and the
-- providers' references carry it. The amount is the order's stored final price, set by the server.
CREATE TABLE payments (
  id text PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  customer_id integer NOT NULL REFERENCES users (id),
  provider text NOT NULL CHECK (provider IN ('paycore', 'paypal', 'fondy', 'paymentwall')),
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'USD',
  state text NOT NULL DEFAULT 'created' CHECK (state IN ('created', 'pending', 'paid', 'declined', 'refunded')),
  -- The provider's own id for the attempt (PayPal order, paycore invoice), once it answered.
  provider_ref text,
  sandbox boolean NOT NULL,
  hash_device text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payments_order_idx ON payments (order_id, created_at DESC);
CREATE INDEX payments_customer_idx ON payments (customer_id, order_id);
CREATE UNIQUE INDEX payments_provider_ref_key ON payments (provider, provider_ref) WHERE provider_ref IS NOT NULL;

-- Issue 4 "Exactly once": every verified provider event, stored in the transaction that applies it.
-- The primary key refuses a second copy of the same event.
CREATE TABLE payment_events (
  provider text NOT NULL,
  event_id text NOT NULL,
  payment_id text NOT NULL REFERENCES payments (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('pending', 'paid', 'declined', 'refunded')),
  -- false when the event arrived after a later state and changed nothing (kept for the audit trail).
  applied boolean NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider, event_id)
);
CREATE INDEX payment_events_payment_idx ON payment_events (payment_id);

-- The customer's payments and refunds (SPEC §2 /transactions). customer_id repeats the order's owner
-- so every query carries it in its WHERE (DESIGN rule 3).
CREATE TABLE transactions (
  id serial PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES users (id),
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  payment_id text REFERENCES payments (id),
  provider text NOT NULL CHECK (provider IN ('paycore', 'paypal', 'fondy', 'paymentwall')),
  type text NOT NULL CHECK (type IN ('payment', 'refund')),
  status text NOT NULL DEFAULT 'completed',
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  currency text NOT NULL DEFAULT 'USD',
  created_at timestamptz NOT NULL DEFAULT now()
);
-- One payment row per paid attempt, whatever retries or races happen.
CREATE UNIQUE INDEX transactions_payment_once ON transactions (payment_id) WHERE type = 'payment';
CREATE INDEX transactions_customer_idx ON transactions (customer_id, created_at DESC, id DESC);
