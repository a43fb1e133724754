-- Issue 3: order creation, files, discounts, idempotent creation, preferred writers.

-- SPEC §3 "Preferred writer": isPremium. The demo writer is premium (seed); this UPDATE covers a database
-- seeded before this column existed and changes nothing on a fresh one.
ALTER TABLE users ADD COLUMN is_premium_writer boolean NOT NULL DEFAULT false;
UPDATE users SET is_premium_writer = true WHERE lower(email) = 'writer@example.com' AND role = 3;

-- A code owned by one customer (loyalty and referral discounts); NULL is a public code like WELCOME10.
ALTER TABLE discount_codes ADD COLUMN customer_id integer REFERENCES users (id) ON DELETE CASCADE;
CREATE UNIQUE INDEX discount_codes_code_lower_key ON discount_codes (lower(code));
CREATE INDEX discount_codes_customer_idx ON discount_codes (customer_id) WHERE customer_id IS NOT NULL;

-- Order files (SPEC §3 "File"): the bytes live in FileStorage under storage_key; customer_id repeats the
-- order's owner so every query can carry it in its WHERE (DESIGN rule 3).
CREATE TABLE order_files (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  customer_id integer NOT NULL REFERENCES users (id),
  source text NOT NULL CHECK (source IN ('customer', 'writer')),
  uploaded_by integer REFERENCES users (id),
  name text NOT NULL,
  type_name text NOT NULL,
  size_bytes bigint NOT NULL CHECK (size_bytes >= 0),
  storage_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_files_order_idx ON order_files (order_id, source, id);
CREATE INDEX order_files_customer_idx ON order_files (customer_id, id);

-- CONTRACT "Orders and catalogues": Idempotency-Key of POST …/orders, per customer. The row is inserted in
-- the transaction that creates the order, so two concurrent requests with one key create one order.
CREATE TABLE order_idempotency_keys (
  customer_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key text NOT NULL,
  request_hash text NOT NULL,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (customer_id, key)
);
