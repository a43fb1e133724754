-- Issue 8, pre-registration takeover (ADR 0038): a password chosen by someone who had not proven the
-- mailbox. The first proof of the mailbox (magic link or confirmation mail) from a browser holding no
-- session of the account removes such a password and ends every session.
ALTER TABLE users ADD COLUMN password_unproven boolean NOT NULL DEFAULT false;
-- Accounts still awaiting their first proof: their password was never proven either.
UPDATE users SET password_unproven = true WHERE email_confirmed_at IS NULL AND role IN (1, 2);
