-- Issue 12 "Profile and privacy" (ADR 0052, ADR 0053).

-- Active sessions: a refresh-token family is one signed-in device (ADR 0007). Each token row carries
-- the device it was issued to and from where, so the live row of a family says what the profile lists.
ALTER TABLE refresh_tokens ADD COLUMN user_agent text NOT NULL DEFAULT '';
ALTER TABLE refresh_tokens ADD COLUMN ip text NOT NULL DEFAULT '';
-- The live row of each family of one account (the session list, ending one or all others).
CREATE INDEX refresh_tokens_user_live_idx ON refresh_tokens (user_id, family_id) WHERE revoked_at IS NULL;

-- Every change of the six consent flags (SPEC §3 "Customer profile"), with its time: the consent history
-- of the personal-data report. One row per flag that changed (old and new value). customer_id is in every
-- WHERE (DESIGN rule 3). Erased with the account (ADR 0052).
CREATE TABLE consent_history (
  id bigserial PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES users (id),
  consent text NOT NULL CHECK (consent IN ('cookies_usages', 'personal_data', 'technical_data', 'location_usages',
    'information_sharing', 'email_subscription')),
  granted boolean NOT NULL,
  previous boolean NOT NULL,
  ip text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL
);
CREATE INDEX consent_history_customer_idx ON consent_history (customer_id, id);

-- When the account was deleted (status 4): its rows are anonymised in place, so nothing cascades (ADR 0052).
ALTER TABLE users ADD COLUMN deleted_at timestamptz;
