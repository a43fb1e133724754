-- Issue 12 (ADR 0050, 0051): loyalty points, generated single-use discount codes, referrals.

-- Generated codes (loyalty and referral) are single use: the first order created with one takes it
-- (used_order_id), and a referral code expires. Public codes (WELCOME10) and older customer codes keep
-- single_use false and behave as before.
ALTER TABLE discount_codes
  ADD COLUMN source text NOT NULL DEFAULT 'public' CHECK (source IN ('public', 'customer', 'loyalty', 'referral')),
  ADD COLUMN single_use boolean NOT NULL DEFAULT false,
  ADD COLUMN used_order_id integer REFERENCES orders (id) ON DELETE RESTRICT,
  ADD COLUMN used_at timestamptz,
  ADD COLUMN expires_at timestamptz;
UPDATE discount_codes SET source = 'customer' WHERE customer_id IS NOT NULL;
CREATE UNIQUE INDEX discount_codes_used_order_key ON discount_codes (used_order_id) WHERE used_order_id IS NOT NULL;
-- One loyalty code not yet used per customer at a time: two racing generations cannot both insert.
CREATE UNIQUE INDEX discount_codes_one_open_loyalty ON discount_codes (customer_id) WHERE source = 'loyalty' AND used_order_id IS NULL;

-- The single use is held by the database, in the transaction that writes the order (whichever code path
-- writes it): an order created or edited with a single-use code takes it; a code already taken by another
-- order refuses the write; an edit that drops or changes the code gives it back.
CREATE FUNCTION take_single_use_discount() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF OLD.discount_code IS NOT DISTINCT FROM NEW.discount_code THEN
      RETURN NEW;
    END IF;
    IF OLD.discount_code IS NOT NULL THEN
      UPDATE discount_codes SET used_order_id = NULL, used_at = NULL
        WHERE lower(code) = lower(OLD.discount_code) AND single_use AND used_order_id = NEW.id;
    END IF;
  END IF;
  IF NEW.discount_code IS NOT NULL THEN
    UPDATE discount_codes SET used_order_id = NEW.id, used_at = NEW.updated_at
      WHERE lower(code) = lower(NEW.discount_code) AND single_use AND (used_order_id IS NULL OR used_order_id = NEW.id);
    IF NOT FOUND AND EXISTS (SELECT 1 FROM discount_codes WHERE lower(code) = lower(NEW.discount_code) AND single_use) THEN
      RAISE EXCEPTION 'single-use discount code already used' USING ERRCODE = 'unique_violation', CONSTRAINT = 'discount_codes_used_order_key';
    END IF;
  END IF;
  RETURN NEW;
END;
$$;
CREATE TRIGGER orders_take_single_use_discount
  AFTER INSERT OR UPDATE OF discount_code ON orders
  FOR EACH ROW EXECUTE FUNCTION take_single_use_discount();

-- The points ledger. The balance is SUM(points), never a counter. Each entry has a key the database holds
-- unique (earned: per paid payment; reversed: per refunded order; redeemed: per generated code), so a
-- repeated callback or a racing request adds nothing. Like the money tables (migration 0005), nothing
-- cascades into it: deleting a customer, an order or a code that has entries is refused.
CREATE TABLE loyalty_points_ledger (
  id bigserial PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  kind text NOT NULL CHECK (kind IN ('earned', 'reversed', 'redeemed')),
  points integer NOT NULL CHECK (points <> 0),
  entry_key text NOT NULL UNIQUE,
  order_id integer REFERENCES orders (id) ON DELETE RESTRICT,
  payment_id text REFERENCES payments (id) ON DELETE RESTRICT,
  discount_code text REFERENCES discount_codes (code) ON DELETE RESTRICT,
  created_at timestamptz NOT NULL,
  CHECK (kind <> 'redeemed' OR (points < 0 AND discount_code IS NOT NULL)),
  -- payment_id is NULL only for the demo data's earnings (orders seeded as paid without an attempt).
  CHECK (kind <> 'earned' OR (points > 0 AND order_id IS NOT NULL)),
  CHECK (kind <> 'reversed' OR (points < 0 AND order_id IS NOT NULL))
);
CREATE INDEX loyalty_points_ledger_customer_idx ON loyalty_points_ledger (customer_id, id DESC);
CREATE INDEX loyalty_points_ledger_order_idx ON loyalty_points_ledger (order_id) WHERE order_id IS NOT NULL;

-- Referrals (SPEC §4, ADR 0051): written when a visitor signs up with ref_id. The status is derived from
-- the referred customer's orders and the referral's code, never stored. fraud is set when the sign-up
-- earns nothing (self-referral, loop, a device another account used); such a row is kept for support and
-- never listed to the referrer.
CREATE TABLE referrals (
  id serial PRIMARY KEY,
  referrer_id integer NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  referred_id integer NOT NULL UNIQUE REFERENCES users (id) ON DELETE RESTRICT,
  hash_device text NOT NULL DEFAULT '',
  fraud text CHECK (fraud IN ('self', 'loop', 'same_device')),
  discount_code text UNIQUE REFERENCES discount_codes (code) ON DELETE RESTRICT,
  created_at timestamptz NOT NULL,
  CHECK (referrer_id <> referred_id)
);
CREATE INDEX referrals_referrer_idx ON referrals (referrer_id, id DESC);
CREATE INDEX referrals_device_idx ON referrals (hash_device) WHERE hash_device <> '';
CREATE INDEX users_hash_device_idx ON users (hash_device) WHERE hash_device <> '';
