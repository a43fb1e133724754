-- Free revisions of completed orders (issue 11, SPEC §3 "Revision", ADR 0044). customer_id repeats the
-- order's owner so every customer query carries it in its WHERE (DESIGN rule 3).
CREATE TABLE revisions (
  id serial PRIMARY KEY,
  order_id integer NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  customer_id integer NOT NULL REFERENCES users (id),
  status_id smallint NOT NULL DEFAULT 1 CHECK (status_id BETWEEN 1 AND 12),
  level_id smallint NOT NULL CHECK (level_id BETWEEN 1 AND 4),
  category_ids smallint[] NOT NULL CHECK (cardinality(category_ids) > 0),
  description text NOT NULL CHECK (length(description) > 0),
  deadline timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- CONTRACT "Revisions": one active revision (statuses 1, 2, 3, 12) per order, held by the database, so
-- two concurrent requests create one.
CREATE UNIQUE INDEX revisions_one_active_per_order ON revisions (order_id) WHERE status_id IN (1, 2, 3, 12);
CREATE INDEX revisions_customer_order_idx ON revisions (customer_id, order_id, created_at DESC, id DESC);
CREATE INDEX revisions_order_idx ON revisions (order_id, created_at DESC, id DESC);

-- Every status a revision has had, with its time and who set it.
CREATE TABLE revision_status_history (
  id bigserial PRIMARY KEY,
  revision_id integer NOT NULL REFERENCES revisions (id) ON DELETE CASCADE,
  status_id smallint NOT NULL,
  changed_by integer REFERENCES users (id),
  created_at timestamptz NOT NULL
);
CREATE INDEX revision_status_history_revision_idx ON revision_status_history (revision_id, id);

-- A revision's files are order files that name their revision (customer's and writer's alike); the
-- order's own lists leave them out.
ALTER TABLE order_files ADD COLUMN revision_id integer REFERENCES revisions (id) ON DELETE CASCADE;
CREATE INDEX order_files_revision_idx ON order_files (revision_id, source, id) WHERE revision_id IS NOT NULL;
