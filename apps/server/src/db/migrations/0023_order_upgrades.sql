-- Issue 24 (ADR 0086): upgrades of a paid order (more pages, extras, a shorter deadline), paid by the difference.

-- One row per upgrade the customer asked to pay. The id is random and unguessable: the checkout path
-- `/checkout/{provider}/upgrade/{id}` carries it like an order's uid. What it changes and costs is fixed
-- when it is made (the server priced it); it applies to the order once, when an attempt pays it in full.
CREATE TABLE order_upgrades (
  id text PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE RESTRICT,
  customer_id integer NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  -- open: waiting for its money; applied: paid and applied; superseded: a newer upgrade replaced it, or the
  -- order moved on (another upgrade applied) before it was paid.
  state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'applied', 'superseded')),
  pages integer NOT NULL CHECK (pages > 0),
  urgency_hours integer NOT NULL CHECK (urgency_hours > 0),
  deadline timestamptz NOT NULL,
  premium_writer boolean NOT NULL,
  extra_quality_check boolean NOT NULL,
  one_page_summary boolean NOT NULL,
  originality_report boolean NOT NULL,
  -- The order's price it was made against: it applies only while the order still costs that.
  base_price_cents integer NOT NULL CHECK (base_price_cents >= 0),
  difference_cents integer NOT NULL CHECK (difference_cents > 0),
  -- Each line of the price breakdown, after − before (cents), added to the order's breakdown when applied.
  price_delta jsonb NOT NULL,
  -- The attempt whose money applied it.
  payment_id text REFERENCES payments (id) ON DELETE RESTRICT,
  created_at timestamptz NOT NULL,
  applied_at timestamptz,
  CHECK ((state = 'applied') = (payment_id IS NOT NULL))
);
-- At most one upgrade of an order waits for money at a time; a new one supersedes it.
CREATE UNIQUE INDEX order_upgrades_one_open ON order_upgrades (order_id) WHERE state = 'open';
CREATE INDEX order_upgrades_order_idx ON order_upgrades (order_id, created_at DESC);
-- One upgrade is applied by at most one payment.
CREATE UNIQUE INDEX order_upgrades_payment_once ON order_upgrades (payment_id) WHERE payment_id IS NOT NULL;

-- An attempt that pays an upgrade names it.
ALTER TABLE payments ADD COLUMN upgrade_id text REFERENCES order_upgrades (id) ON DELETE RESTRICT;
ALTER TABLE payments DROP CONSTRAINT payments_kind_check,
  ADD CONSTRAINT payments_kind_check CHECK (kind IN ('full', 'difference', 'upgrade'));
ALTER TABLE payments ADD CONSTRAINT payments_upgrade_kind CHECK ((kind = 'upgrade') = (upgrade_id IS NOT NULL));
CREATE INDEX payments_upgrade_idx ON payments (upgrade_id) WHERE upgrade_id IS NOT NULL;

-- The order's timeline (ADR 0084) says when an upgrade was paid and applied.
ALTER TABLE order_events DROP CONSTRAINT order_events_type_check,
  ADD CONSTRAINT order_events_type_check CHECK (type IN ('delivered', 'changes_requested', 'review_extended', 'accepted',
    'auto_completed', 'extension_proposed', 'extension_accepted', 'extension_declined', 'extension_expired', 'upgraded'));
