-- Issue 5: the dashboard's order list, reviews, the staff queue.

-- SPEC §3 "Feedback": one review per order; the rating is stored as a count of halves (0 to 10) so
-- 4.5 stars is exactly 9, never a float. customer_id repeats the order's owner (DESIGN rule 3).
CREATE TABLE order_reviews (
  id serial PRIMARY KEY,
  order_id integer NOT NULL UNIQUE REFERENCES orders (id) ON DELETE CASCADE,
  customer_id integer NOT NULL REFERENCES users (id),
  rating_halves smallint NOT NULL CHECK (rating_halves BETWEEN 0 AND 10),
  comment text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_reviews_customer_idx ON order_reviews (customer_id, id);

-- The dashboard's status filter (CONTRACT "Order list query"): one customer's orders of one status,
-- newest first, without reading the customer's other statuses. orders_customer_list_idx (0001) serves
-- the unfiltered list, the date range and the search (a title match is checked on the customer's rows).
CREATE INDEX orders_customer_status_list_idx ON orders (customer_id, hidden, status_id, created_at DESC, id DESC);

-- CONTRACT "Staff side": support's queue of every order, newest first (orders_status_idx serves it
-- with a status; orders_writer_idx serves a writer's).
CREATE INDEX orders_created_idx ON orders (created_at DESC, id DESC);
