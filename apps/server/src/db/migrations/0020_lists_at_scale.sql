-- Issue 23 "A million orders at page-one speed" (ADR 0081): the indexes, search and counts the lists
-- need at 1,000,000 orders (bench/scale-lists.mjs).

-- Substring search (LIKE '%text%') served by trigram indexes, so a search does not read every row.
-- The embedded database loads the extension's bundle (db/client.ts, pgliteOptions).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX orders_title_trgm_idx ON orders USING gin (lower(title) gin_trgm_ops);
CREATE INDEX users_email_trgm_idx ON users USING gin (lower(email) gin_trgm_ops);

-- The customer's list with the title in its index: a search among the customer's own orders (LIKE on the
-- title) runs as an index-only scan of their entries, never reading the table (10,000 orders: ~110 pages).
DROP INDEX orders_customer_list_idx;
CREATE INDEX orders_customer_list_idx ON orders (customer_id, hidden, created_at DESC, id DESC) INCLUDE (title);

-- Staff's queue by status, newest first, with the id as the tie-break of equal times (a page boundary
-- between two orders of the same second is then exact).
DROP INDEX orders_status_idx;
CREATE INDEX orders_status_idx ON orders (status_id, created_at DESC, id DESC);
-- "Paid and unassigned": the orders waiting for a writer.
CREATE INDEX orders_unassigned_idx ON orders (status_id, created_at DESC, id DESC) WHERE writer_id IS NULL;
-- "Due within N hours": a range of deadlines.
CREATE INDEX orders_deadline_idx ON orders (deadline, id);
-- A writer's queue, newest first.
CREATE INDEX orders_writer_list_idx ON orders (writer_id, created_at DESC, id DESC) WHERE writer_id IS NOT NULL;

-- The number of orders per status, kept by the orders table's own triggers, so staff's queue counts a
-- million orders without reading them. Statement triggers with transition tables: one bulk statement
-- makes one change per status. Rows are changed in status order (INSERT … ORDER BY … ON CONFLICT), so
-- transactions that each change statuses in one statement wait for each other and never deadlock.
CREATE TABLE order_status_counts (
  status_id smallint PRIMARY KEY,
  orders bigint NOT NULL
);
INSERT INTO order_status_counts (status_id, orders) SELECT status_id, count(*) FROM orders GROUP BY status_id;

CREATE FUNCTION order_status_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO order_status_counts (status_id, orders)
      SELECT status_id, count(*) FROM inserted_orders GROUP BY status_id ORDER BY status_id
      ON CONFLICT (status_id) DO UPDATE SET orders = order_status_counts.orders + EXCLUDED.orders;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO order_status_counts (status_id, orders)
      SELECT status_id, -count(*) FROM deleted_orders GROUP BY status_id ORDER BY status_id
      ON CONFLICT (status_id) DO UPDATE SET orders = order_status_counts.orders + EXCLUDED.orders;
  ELSE
    INSERT INTO order_status_counts (status_id, orders)
      SELECT status_id, sum(n) FROM (
        SELECT o.status_id, -1 AS n FROM old_orders o JOIN new_orders n ON n.id = o.id WHERE n.status_id <> o.status_id
        UNION ALL
        SELECT n.status_id, 1 FROM old_orders o JOIN new_orders n ON n.id = o.id WHERE n.status_id <> o.status_id
      ) moves GROUP BY status_id HAVING sum(n) <> 0 ORDER BY status_id
      ON CONFLICT (status_id) DO UPDATE SET orders = order_status_counts.orders + EXCLUDED.orders;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER orders_count_inserted AFTER INSERT ON orders REFERENCING NEW TABLE AS inserted_orders
  FOR EACH STATEMENT EXECUTE FUNCTION order_status_counts_apply();
CREATE TRIGGER orders_count_deleted AFTER DELETE ON orders REFERENCING OLD TABLE AS deleted_orders
  FOR EACH STATEMENT EXECUTE FUNCTION order_status_counts_apply();
CREATE TRIGGER orders_count_moved AFTER UPDATE ON orders REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION order_status_counts_apply();
