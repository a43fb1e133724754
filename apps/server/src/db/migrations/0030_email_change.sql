-- Issue 27 "Loyalty and profile" (ADR 0097): the email can be changed, confirmed on the new address.
-- The link mailed to the new address is a one-time token of purpose 'email_change' (stored hashed, like the
-- others); its row carries the address it sets and the session (refresh-token family) that asked for it:
-- the change happens only while that session is live, so signing it out cancels the change.
ALTER TABLE one_time_tokens DROP CONSTRAINT one_time_tokens_purpose_check;
ALTER TABLE one_time_tokens ADD CONSTRAINT one_time_tokens_purpose_check
  CHECK (purpose IN ('magic_link', 'password_reset', 'email_confirm', 'account_delete', 'email_change'));
ALTER TABLE one_time_tokens ADD COLUMN new_email text;
ALTER TABLE one_time_tokens ADD COLUMN family_id text;
ALTER TABLE one_time_tokens ADD CONSTRAINT one_time_tokens_email_change_check
  CHECK (purpose <> 'email_change' OR (new_email IS NOT NULL AND family_id IS NOT NULL));
