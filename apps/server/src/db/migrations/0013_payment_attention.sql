-- Issue 8 (ADR 0058): support's queue of stale payment attempts flagged by the reconciliation job
-- (ADR 0037 set support_since only). Why it was flagged, and when and by whom support resolved it.
ALTER TABLE payments ADD COLUMN support_reason text
  CHECK (support_reason IS NULL OR support_reason IN ('no_status_api', 'provider_error', 'still_open'));
ALTER TABLE payments ADD COLUMN support_resolved_at timestamptz;
ALTER TABLE payments ADD COLUMN support_resolved_by integer REFERENCES users (id) ON DELETE RESTRICT;
ALTER TABLE payments ADD COLUMN support_outcome text
  CHECK (support_outcome IS NULL OR support_outcome IN ('declined', 'kept_open'));
ALTER TABLE payments ADD CONSTRAINT payments_support_resolved_flagged CHECK (support_resolved_at IS NULL OR support_since IS NOT NULL);
-- Attempts flagged before this migration: Paymentwall and paycore.io could not be asked then; others ran
-- out of checks.
UPDATE payments SET support_reason = CASE WHEN provider IN ('paymentwall', 'paycore') THEN 'no_status_api' ELSE 'still_open' END
 WHERE support_since IS NOT NULL;
CREATE INDEX payments_support_attention_idx ON payments (support_since, id) WHERE support_since IS NOT NULL AND support_resolved_at IS NULL;
