-- Issue 21 (ADR 0070): deleting the account asks for a proof. An account with a password gives it; one
-- without (a checkout account with the random password the server set, or one whose unproven password was
-- removed, ADR 0038) is mailed a one-time link instead. `password_set` says which.
ALTER TABLE users ADD COLUMN password_set boolean NOT NULL DEFAULT true;
-- The only accounts known to have no password: the removed ones. A checkout account made before this
-- migration has a random password no one knows and stays `true`: "Forgot password" sets one (ADR 0070).
UPDATE users SET password_set = false WHERE password_hash = '!no-password';

-- The deletion's link is a one-time token like the others (stored hashed, single use, short-lived).
ALTER TABLE one_time_tokens DROP CONSTRAINT one_time_tokens_purpose_check;
ALTER TABLE one_time_tokens ADD CONSTRAINT one_time_tokens_purpose_check
  CHECK (purpose IN ('magic_link', 'password_reset', 'email_confirm', 'account_delete'));
