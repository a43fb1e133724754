-- Accounts: customers (role 1, 2), writers (3) and support (6) share one table (CONTRACT "Identity").
CREATE TABLE users (
  id serial PRIMARY KEY,
  role smallint NOT NULL DEFAULT 1,
  email text NOT NULL,
  password_hash text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  phone text NOT NULL DEFAULT '',
  country text NOT NULL DEFAULT '',
  state text NOT NULL DEFAULT '',
  city text NOT NULL DEFAULT '',
  address text NOT NULL DEFAULT '',
  zip text NOT NULL DEFAULT '',
  ip_client text NOT NULL DEFAULT '',
  status_id smallint NOT NULL DEFAULT 3,
  enabled_newsletters boolean NOT NULL DEFAULT false,
  enabled_night_calls boolean NOT NULL DEFAULT false,
  enabled_facebook_messenger boolean NOT NULL DEFAULT false,
  enabled_cookies_usage boolean NOT NULL DEFAULT true,
  enabled_personal_data boolean NOT NULL DEFAULT true,
  enabled_technical_data boolean NOT NULL DEFAULT true,
  enabled_location_usage boolean NOT NULL DEFAULT false,
  enabled_information_sharing boolean NOT NULL DEFAULT false,
  enabled_email_subscription boolean NOT NULL DEFAULT false,
  email_confirmed_at timestamptz,
  referrer_id integer REFERENCES users (id),
  hash_device text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_lower_key ON users (lower(email));

-- Refresh tokens: opaque, stored hashed, rotated on every refresh; a family is revoked on reuse.
CREATE TABLE refresh_tokens (
  id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  family_id text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  rotated_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);

-- One-time tokens (magic link, password reset, email confirmation): stored hashed, single use.
CREATE TABLE one_time_tokens (
  id bigserial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('magic_link', 'password_reset', 'email_confirm')),
  token_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX one_time_tokens_user_idx ON one_time_tokens (user_id, purpose);

-- The built-in mail outbox (CONTRACT "Identity": used when SMTP_URL is not set).
CREATE TABLE mail_outbox (
  id bigserial PRIMARY KEY,
  to_address text NOT NULL,
  subject text NOT NULL,
  text_body text NOT NULL,
  html_body text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX mail_outbox_to_idx ON mail_outbox (lower(to_address), id);

-- Site settings (SPEC §3), one JSON document per site.
CREATE TABLE site_settings (
  id_site integer PRIMARY KEY,
  settings jsonb NOT NULL
);

-- Catalogues of SPEC §7: one table, a kind per list. site_category 0 means every category.
CREATE TABLE catalogue_items (
  kind text NOT NULL CHECK (kind IN ('work_type', 'assignment', 'subject', 'paper_format', 'resume_service',
    'academic_level', 'resume_level', 'thesis_level')),
  site_category smallint NOT NULL DEFAULT 0,
  id integer NOT NULL,
  name text NOT NULL,
  position integer NOT NULL DEFAULT 0,
  PRIMARY KEY (kind, site_category, id)
);

CREATE TABLE urgencies (
  id_site integer NOT NULL,
  id integer NOT NULL,
  hours integer NOT NULL CHECK (hours >= 1),
  name text NOT NULL,
  PRIMARY KEY (id_site, id)
);

-- Price tables (CONTRACT: live in the database, seeded, editable without a deploy).
CREATE TABLE price_rates (
  site_category smallint NOT NULL,
  work_type_id integer NOT NULL,
  level_id integer NOT NULL,
  urgency_hours integer NOT NULL,
  cents_per_page integer NOT NULL CHECK (cents_per_page >= 0),
  PRIMARY KEY (site_category, work_type_id, level_id, urgency_hours)
);
CREATE TABLE price_extras (
  site_category smallint NOT NULL,
  key text NOT NULL CHECK (key IN ('premiumWriter', 'preferredWriter', 'extraQualityCheck', 'originalityReport', 'onePageSummary')),
  kind text NOT NULL CHECK (kind IN ('percent', 'flat')),
  -- percent: whole percent of the basic price; flat: cents
  value integer NOT NULL CHECK (value >= 0),
  PRIMARY KEY (site_category, key)
);
CREATE TABLE price_settings (
  site_category smallint PRIMARY KEY,
  max_amount_discount_cents integer NOT NULL CHECK (max_amount_discount_cents >= 0)
);

CREATE TABLE discount_codes (
  code text PRIMARY KEY,
  percent integer NOT NULL DEFAULT 0 CHECK (percent BETWEEN 0 AND 100),
  amount_cents integer NOT NULL DEFAULT 0 CHECK (amount_cents >= 0),
  is_top_writer_discount boolean NOT NULL DEFAULT false,
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Orders (SPEC §3 "Order"). Money is integer cents.
CREATE TABLE orders (
  id serial PRIMARY KEY,
  uid text NOT NULL UNIQUE,
  customer_id integer NOT NULL REFERENCES users (id),
  site_category smallint NOT NULL,
  work_type_id integer NOT NULL,
  level_id integer NOT NULL,
  paper_format_id integer,
  paper_type_id integer,
  resume_service_id integer,
  subject_id integer,
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  credentials text NOT NULL DEFAULT '',
  pages integer NOT NULL,
  sources integer NOT NULL DEFAULT 0,
  spacing smallint NOT NULL DEFAULT 2,
  urgency_hours integer NOT NULL,
  premium_writer boolean NOT NULL DEFAULT false,
  extra_quality_check boolean NOT NULL DEFAULT false,
  one_page_summary boolean NOT NULL DEFAULT false,
  originality_report boolean NOT NULL DEFAULT false,
  preferred_writer_ids integer[] NOT NULL DEFAULT '{}',
  preferred_writer_another boolean NOT NULL DEFAULT false,
  writer_id integer REFERENCES users (id),
  status_id smallint NOT NULL DEFAULT 1,
  hidden boolean NOT NULL DEFAULT false,
  pending boolean NOT NULL DEFAULT false,
  deadline timestamptz NOT NULL,
  basic_price_cents integer NOT NULL,
  final_price_cents integer NOT NULL,
  discount_code text,
  discount_cents integer NOT NULL DEFAULT 0,
  price_breakdown jsonb NOT NULL DEFAULT '{}',
  completed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX orders_customer_list_idx ON orders (customer_id, hidden, created_at DESC, id DESC);
CREATE INDEX orders_writer_idx ON orders (writer_id, status_id);
CREATE INDEX orders_status_idx ON orders (status_id, created_at DESC);

CREATE TABLE order_status_history (
  id bigserial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  status_id smallint NOT NULL,
  changed_by integer REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_status_history_order_idx ON order_status_history (order_id, id);

-- Secrets generated on first start when none is configured (the JWT key), shared by every instance.
CREATE TABLE app_secrets (
  name text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
