-- ADR 0074: mail_outbox is the durable queue of every mail. A request only adds its row; with SMTP_URL a
-- background job on every instance claims due rows (FOR UPDATE SKIP LOCKED, with a lease), sends each
-- over SMTP and marks it sent once the server accepted it; a failure is tried again with a growing delay.
-- Without SMTP_URL a row is delivered the moment it is stored: the dev outbox (GET /api/dev/outbox)
-- lists those rows, as before.
ALTER TABLE mail_outbox
  ADD COLUMN transport text NOT NULL DEFAULT 'outbox' CHECK (transport IN ('outbox', 'smtp')),
  -- when the mail was delivered (stored in the outbox, or accepted by the SMTP server); null: queued
  ADD COLUMN sent_at timestamptz,
  -- SMTP attempts so far, and when the next may start (also the claim's lease)
  ADD COLUMN attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  ADD COLUMN next_attempt_at timestamptz,
  -- the last failure's reason (the SMTP server's answer or the network error), never the mail's content
  ADD COLUMN last_error text CHECK (length(last_error) <= 500);

-- Every row so far went to the outbox and was delivered when stored.
UPDATE mail_outbox SET sent_at = created_at;

-- A queued SMTP mail has a next attempt; a delivered one has its time.
ALTER TABLE mail_outbox ADD CONSTRAINT mail_outbox_queued_has_next
  CHECK (sent_at IS NOT NULL OR next_attempt_at IS NOT NULL);

-- The job's claim: the oldest due mail not yet sent.
CREATE INDEX mail_outbox_due_idx ON mail_outbox (next_attempt_at, id) WHERE sent_at IS NULL;
