-- Issue 8 "Safe to run for real": sandbox marks, one refund per paid attempt, reconciliation state.

-- A transaction of a sandbox attempt moved no money; it says so (ADR 0036).
ALTER TABLE transactions ADD COLUMN sandbox boolean NOT NULL DEFAULT false;
UPDATE transactions t SET sandbox = p.sandbox FROM payments p WHERE p.id = t.payment_id;

-- One refund per paid attempt (or per order when the payment row names no attempt), whoever reports it
-- first: the provider's refund or chargeback event, or support's status change to refunded. The key is
-- 'payment:<id>' or 'order:<id>'; the earliest refund of each already stored keeps it, so an existing
-- duplicate stays on record without blocking the index.
ALTER TABLE transactions ADD COLUMN refund_key text;
UPDATE transactions t SET refund_key = k.refund_key
  FROM (
    SELECT DISTINCT ON (key) id, key AS refund_key
      FROM (SELECT id, created_at, CASE WHEN payment_id IS NULL THEN 'order:' || order_id ELSE 'payment:' || payment_id END AS key
              FROM transactions WHERE type = 'refund') r
     ORDER BY key, created_at, id
  ) k
 WHERE t.id = k.id;
CREATE UNIQUE INDEX transactions_refund_once ON transactions (refund_key);
ALTER TABLE transactions ADD CONSTRAINT transactions_refund_key_type CHECK (refund_key IS NULL OR type = 'refund');

-- Reconciliation of attempts left open (ADR 0037): the durable job's state lives on the attempt, so a
-- restart (or another instance) resumes where the last one stopped.
--   reconcile_at      when to ask the provider next (NULL: created_at + the configured delay)
--   reconcile_checks  how many times it was asked
--   support_since     set when the provider cannot be asked (Paymentwall) or never answered: support looks
ALTER TABLE payments ADD COLUMN reconcile_at timestamptz;
ALTER TABLE payments ADD COLUMN reconcile_checks integer NOT NULL DEFAULT 0;
ALTER TABLE payments ADD COLUMN support_since timestamptz;
CREATE INDEX payments_reconcile_idx ON payments (COALESCE(reconcile_at, created_at)) WHERE state IN ('created', 'pending') AND support_since IS NULL;
