-- Issue 24 (ADR 0085): receipts and credit notes, billing details on the profile, terms on record.

-- The buyer's billing details (printed on receipts as they were at payment time).
ALTER TABLE users
  ADD COLUMN billing_name text NOT NULL DEFAULT '',
  ADD COLUMN billing_company text NOT NULL DEFAULT '',
  ADD COLUMN billing_tax_id text NOT NULL DEFAULT '',
  ADD COLUMN billing_address text NOT NULL DEFAULT '';

-- One counter row per kind of document. The transaction that writes a payment or a refund increments its
-- counter (UPDATE … RETURNING locks the row until it commits), so numbers are taken in commit order and a
-- rolled-back payment takes none: no gaps, unlike a sequence.
CREATE TABLE document_counters (
  kind text PRIMARY KEY CHECK (kind IN ('receipt', 'credit_note')),
  last_number integer NOT NULL DEFAULT 0 CHECK (last_number >= 0)
);
INSERT INTO document_counters (kind) VALUES ('receipt'), ('credit_note');

-- The seller printed on the next documents: one row, set from SELLER_* at every start when it differs
-- (the money path reads it in its own transaction; each document keeps a copy).
CREATE TABLE document_seller (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  name text NOT NULL,
  address text NOT NULL,
  tax_id text NOT NULL,
  email text NOT NULL
);
INSERT INTO document_seller (name, address, tax_id, email) VALUES ('Writing Service', '', '', '');

-- One document per settled payment (a receipt) or refund (a credit note that names its receipt). The
-- snapshot holds everything printed (seller, buyer, order, lines, money) as it was at issue time.
CREATE TABLE transaction_documents (
  transaction_id integer PRIMARY KEY REFERENCES transactions (id) ON DELETE RESTRICT,
  customer_id integer NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  kind text NOT NULL CHECK (kind IN ('receipt', 'credit_note')),
  number integer NOT NULL CHECK (number > 0),
  refers_to integer REFERENCES transaction_documents (transaction_id) ON DELETE RESTRICT,
  issued_at timestamptz NOT NULL,
  snapshot jsonb NOT NULL,
  UNIQUE (kind, number),
  CHECK (kind = 'credit_note' OR refers_to IS NULL)
);
CREATE INDEX transaction_documents_customer_idx ON transaction_documents (customer_id, issued_at);

-- Issued documents never change and never go (the books): the database refuses it, whoever asks.
CREATE FUNCTION transaction_documents_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'transaction documents are immutable (% refused)', TG_OP;
END;
$$;
CREATE TRIGGER transaction_documents_no_change BEFORE UPDATE OR DELETE ON transaction_documents
  FOR EACH ROW EXECUTE FUNCTION transaction_documents_immutable();

-- Which versions of the Terms of Use and the Privacy Policy a customer accepted, when, from where.
CREATE TABLE terms_acceptances (
  id serial PRIMARY KEY,
  customer_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  terms_version text NOT NULL,
  privacy_version text NOT NULL,
  context text NOT NULL CHECK (context IN ('sign_up', 'prompt')),
  ip text NOT NULL,
  user_agent text NOT NULL,
  accepted_at timestamptz NOT NULL
);
-- One row per customer and pair of versions: a double click, or two tabs, record one acceptance.
CREATE UNIQUE INDEX terms_acceptances_once ON terms_acceptances (customer_id, terms_version, privacy_version);
