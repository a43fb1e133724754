-- Issue 21 "An order's status never lies" (ADR 0071 the transition table, ADR 0072 one refund use case).

-- Every change of an order's status says who made it (the account and its role at the time), how (the
-- transition table's `by`, or the order's creation) and, for 7, 8 and 9, why.
ALTER TABLE order_status_history
  ADD COLUMN changed_by_role smallint,
  ADD COLUMN via text CHECK (via IN ('creation', 'support', 'payment', 'assignment', 'refund')),
  ADD COLUMN reason text CHECK (char_length(reason) <= 1000);
UPDATE order_status_history h SET changed_by_role = u.role FROM users u WHERE u.id = h.changed_by;

-- A payment support records by hand (a bank transfer) is an attempt of provider 'manual' with its
-- reference in provider_ref (the (provider, provider_ref) unique index refuses a reference twice), settled
-- through the same path as a provider's paid event; recorded_by is the support account.
ALTER TABLE payments DROP CONSTRAINT payments_provider_check,
  ADD CONSTRAINT payments_provider_check CHECK (provider IN ('paycore', 'paypal', 'fondy', 'paymentwall', 'manual'));
ALTER TABLE transactions DROP CONSTRAINT transactions_provider_check,
  ADD CONSTRAINT transactions_provider_check CHECK (provider IN ('paycore', 'paypal', 'fondy', 'paymentwall', 'manual'));
ALTER TABLE payments ADD COLUMN recorded_by integer REFERENCES users (id) ON DELETE RESTRICT;

-- A refund takes back the order's points in proportion (one 'reversed' entry per refund) and, when the
-- balance would go below 0, voids the customer's unused loyalty code and gives back what it cost
-- ('voided', positive). A voided code is inactive: apply refuses it, and it no longer counts as the one
-- open loyalty code, so a new one can be generated.
ALTER TABLE loyalty_points_ledger DROP CONSTRAINT loyalty_points_ledger_kind_check,
  ADD CONSTRAINT loyalty_points_ledger_kind_check CHECK (kind IN ('earned', 'reversed', 'redeemed', 'voided'));
ALTER TABLE loyalty_points_ledger ADD CONSTRAINT loyalty_points_ledger_voided_check
  CHECK (kind <> 'voided' OR (points > 0 AND discount_code IS NOT NULL));
DROP INDEX discount_codes_one_open_loyalty;
CREATE UNIQUE INDEX discount_codes_one_open_loyalty ON discount_codes (customer_id)
  WHERE source = 'loyalty' AND used_order_id IS NULL AND active;
