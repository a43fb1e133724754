-- Issue 25 (ADR 0088): notifications in the app, their mail through the mail queue, the customer's choices.

-- One row per event a user is told of (the bell). `mail_state`: 'pending' while its mail waits for the fold
-- window (mail_due_at), 'mailed' once a mail naming it is queued in mail_outbox, 'skipped' when it was read
-- in the app first or its type's mail is off, 'none' for a type that is not mailed.
CREATE TABLE notifications (
  id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (length(type) <= 40),
  order_id integer REFERENCES orders (id) ON DELETE CASCADE,
  title text NOT NULL CHECK (length(title) <= 200),
  body text NOT NULL CHECK (length(body) <= 2000),
  -- what the mail needs beyond the text (a payment's id for its receipt, a review date)
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL,
  read_at timestamptz,
  mail_state text NOT NULL CHECK (mail_state IN ('none', 'pending', 'mailed', 'skipped')),
  mail_due_at timestamptz,
  -- the mail job's claim (SKIP LOCKED, then this lease): another instance leaves the row alone meanwhile
  mail_claimed_until timestamptz,
  -- one reminder of each kind per order and moment (payment reminders, deadline_soon): the job's key
  dedupe_key text,
  CHECK (mail_state <> 'pending' OR mail_due_at IS NOT NULL)
);
CREATE INDEX notifications_user_idx ON notifications (user_id, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;
CREATE INDEX notifications_mail_due_idx ON notifications (mail_due_at, id) WHERE mail_state = 'pending';
CREATE UNIQUE INDEX notifications_dedupe_once ON notifications (dedupe_key) WHERE dedupe_key IS NOT NULL;

-- The customer's choices per type and channel; a missing row is the default (mail on, push off).
-- `updated_at` also voids unsubscribe links issued before it (a replayed old link changes nothing).
CREATE TABLE notification_preferences (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (length(type) <= 40),
  email boolean NOT NULL,
  push boolean NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, type)
);

-- Browser push subscriptions (Web Push), one per browser endpoint.
CREATE TABLE push_subscriptions (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  endpoint text NOT NULL UNIQUE CHECK (length(endpoint) <= 1000),
  p256dh text NOT NULL CHECK (length(p256dh) <= 200),
  auth text NOT NULL CHECK (length(auth) <= 100),
  created_at timestamptz NOT NULL
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id);

-- The mail queue (ADR 0074) carries headers (List-Unsubscribe, List-Unsubscribe-Post) and attachments (a
-- receipt's PDF, base64), cleared with the bodies once sent.
ALTER TABLE mail_outbox
  ADD COLUMN headers jsonb NOT NULL DEFAULT '{}'::jsonb,
  ADD COLUMN attachments jsonb NOT NULL DEFAULT '[]'::jsonb;
