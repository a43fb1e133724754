-- bench/scale-lists.mjs's data set (ADR 0081): 1,000,000 orders over 100,000 customers, one of them
-- (scale-0@example.com) with 10,000, spread over three years up to now, with their payments and
-- transactions, in plain SQL (generate_series). Reproducible: setseed() fixes random().
-- :writers writers (role 3) and one support account (role 6) come with it.
SELECT setseed(0.23);

INSERT INTO users (role, email, password_hash, first_name, last_name, status_id, created_at, updated_at)
SELECT 1,
  (ARRAY['anna', 'ben', 'chloe', 'david', 'emma', 'felix', 'grace', 'henry', 'isla', 'jack', 'kate', 'liam',
         'mia', 'noah', 'olivia', 'paul', 'quinn', 'rose', 'sam', 'tara'])[1 + g % 20]
    || '.' || (ARRAY['smith', 'jones', 'brown', 'taylor', 'wilson', 'davies', 'evans', 'thomas', 'roberts', 'walker',
         'wright', 'green', 'hall', 'wood', 'clarke', 'hughes', 'lewis', 'king', 'baker', 'hill'])[1 + (g / 20) % 20]
    || g || '@' || (ARRAY['gmail.com', 'outlook.com', 'yahoo.com', 'icloud.com', 'uni.edu', 'proton.me'])[1 + g % 6],
  'x', 'Customer', 'No ' || g, 1, timestamptz '2023-01-01' + (g * interval '15 minutes'), now()
FROM generate_series(1, 99999) g;
INSERT INTO users (role, email, password_hash, first_name, last_name, status_id)
VALUES (1, 'scale-0@example.com', 'x', 'Busy', 'Customer', 1), (6, 'scale-support@example.com', 'x', 'Scale', 'Support', 1);
INSERT INTO users (role, email, password_hash, first_name, last_name, status_id)
SELECT 3, 'scale-writer-' || g || '@example.com', 'x', 'Writer', 'No ' || g, 1 FROM generate_series(1, 300) g;

-- Orders, oldest first (the serial id follows the creation time, as it does in production). Every 100th
-- order is the busy customer's; the rest go to the others unevenly (a few loyal customers, a long tail).
CREATE TEMP TABLE scale_ids AS
  SELECT
    (SELECT id FROM users WHERE email = 'scale-0@example.com') AS busy,
    (SELECT min(id) FROM users WHERE role = 1) AS first_customer,
    (SELECT min(id) FROM users WHERE role = 3) AS first_writer;

INSERT INTO orders (uid, customer_id, site_category, work_type_id, level_id, subject_id, paper_format_id, title, pages,
  urgency_hours, writer_id, status_id, hidden, deadline, basic_price_cents, final_price_cents, amount_due_cents,
  completed_at, created_at, updated_at)
SELECT md5('scale' || s.g), s.customer_id, s.site_category, 1 + s.g % 3, 2, 1 + s.g % 40, 1 + s.g % 4, s.title, s.pages,
  s.urgency_hours, CASE WHEN s.status_id IN (3, 5, 7, 9) THEN s.first_writer + (s.g * 7) % 300 END, s.status_id,
  -- Customers hide finished or abandoned orders now and then.
  s.status_id IN (1, 5, 7, 8) AND s.r2 < 0.08,
  s.deadline, s.pages * 1800, s.pages * 1800 - (s.g % 5) * 100,
  CASE WHEN s.status_id = 1 THEN s.pages * 1800 - (s.g % 5) * 100 ELSE 0 END,
  CASE WHEN s.status_id = 5 THEN s.deadline END, s.created_at, s.created_at
FROM (
  SELECT t.*,
    -- Finished orders are mostly completed; those still running are paid, in progress or unpaid.
    CASE
      WHEN t.deadline < now() - interval '2 days' THEN
        CASE WHEN t.r1 < 0.70 THEN 5 WHEN t.r1 < 0.82 THEN 8 WHEN t.r1 < 0.93 THEN 1 WHEN t.r1 < 0.97 THEN 7 ELSE 3 END
      ELSE
        CASE WHEN t.r1 < 0.25 THEN 2 WHEN t.r1 < 0.70 THEN 3 WHEN t.r1 < 0.85 THEN 1 WHEN t.r1 < 0.90 THEN 9 ELSE 5 END
    END AS status_id
  FROM (
    SELECT b.*, b.created_at + b.urgency_hours * interval '1 hour' AS deadline
    FROM (
      SELECT g, random() AS r1, random() AS r2, ids.first_writer,
        CASE WHEN g % 100 = 0 THEN ids.busy
             ELSE ids.first_customer + floor(99999 * power(random(), 1.6))::int END AS customer_id,
        (ARRAY[1, 1, 1, 3, 4, 5])[1 + g % 6] AS site_category,
        1 + floor(random() * 30)::int AS pages,
        (ARRAY[6, 12, 24, 48, 72, 120, 168, 240, 336])[1 + floor(random() * 9)::int] AS urgency_hours,
        -- Three years up to now, a little jitter: the ids keep the creation order all the same.
        now() - interval '3 years' + (g * interval '3 years' / 1000000) AS created_at,
        (ARRAY['The impact of', 'An analysis of', 'A critical review of', 'Case study:', 'Essay on', 'Research proposal:',
               'Reflection on', 'Literature review of', 'Discussion post:', 'Report on'])[1 + floor(random() * 10)::int]
        || ' ' || (ARRAY['social media', 'climate change', 'renewable energy', 'supply chains', 'nursing ethics',
               'patient safety', 'the French Revolution', 'the Cold War', 'monetary policy', 'behavioural economics',
               'machine learning', 'data privacy', 'criminal justice', 'constitutional law', 'early childhood',
               'second language learning', 'Shakespeare''s tragedies', 'the Harlem Renaissance', 'organisational culture',
               'leadership styles', 'public health', 'mental health', 'urban planning', 'marine biology', 'genetics',
               'quantum computing', 'international trade', 'brand strategy', 'digital marketing', 'human resources',
               'Roman history', 'medieval Europe', 'modern art', 'film theory', 'world religions', 'game theory',
               'cyber security', 'immigration policy', 'food security', 'sports psychology'])[1 + floor(random() * 40)::int]
        || (ARRAY['', '', ' in the United States', ' in Europe', ' in developing countries', ' among teenagers',
               ' in small businesses', ' after 2008', ' in the 21st century', ' in hospitals'])[1 + floor(random() * 10)::int]
        || CASE WHEN random() < 0.4
             THEN ' (' || (ARRAY['NURS', 'HIST', 'ECON', 'PSYC', 'BUSI', 'ENGL', 'BIOL', 'LAWS', 'MKTG', 'COMP'])[1 + floor(random() * 10)::int]
                  || ' ' || (100 + floor(random() * 900)::int) || ')'
             ELSE '' END AS title
      FROM generate_series(1, 1000000) g, scale_ids ids
    ) b
  ) t
) s;

-- One paid attempt per order that was paid (a declined one before it now and then), its transaction,
-- and a refund for the refunded ones.
INSERT INTO payments (id, order_id, customer_id, provider, amount_cents, state, sandbox, created_at, updated_at)
SELECT 'pay-' || o.id, o.id, o.customer_id, (ARRAY['paycore', 'paypal', 'fondy', 'paymentwall'])[1 + o.id % 4],
  o.final_price_cents, CASE WHEN o.status_id = 7 THEN 'refunded' ELSE 'paid' END, false,
  o.created_at + interval '20 minutes', o.created_at + interval '25 minutes'
FROM orders o WHERE o.status_id IN (2, 3, 5, 7, 9);
INSERT INTO payments (id, order_id, customer_id, provider, amount_cents, state, sandbox, created_at, updated_at)
SELECT 'declined-' || o.id, o.id, o.customer_id, 'paycore', o.final_price_cents, 'declined', false,
  o.created_at + interval '5 minutes', o.created_at + interval '6 minutes'
FROM orders o WHERE o.id % 9 = 0;
INSERT INTO transactions (customer_id, order_id, payment_id, provider, type, amount_cents, created_at)
SELECT p.customer_id, p.order_id, p.id, p.provider, 'payment', p.amount_cents, p.created_at + interval '1 minute'
FROM payments p WHERE p.state IN ('paid', 'refunded');
INSERT INTO transactions (customer_id, order_id, payment_id, provider, type, amount_cents, created_at, refund_key)
SELECT p.customer_id, p.order_id, p.id, p.provider, 'refund', p.amount_cents, p.updated_at + interval '3 days', 'payment:' || p.id
FROM payments p WHERE p.state = 'refunded';

-- Their receipts and credit notes (ADR 0085), numbered in time order, as the money path would have issued
-- them (a compact snapshot: the bench reads lists, not the PDFs); without them the server would issue
-- 800,000 documents in the background while it is measured (ADR 0099).
INSERT INTO transaction_documents (transaction_id, customer_id, kind, number, refers_to, issued_at, snapshot)
SELECT t.id, t.customer_id, 'receipt', c.last_number + row_number() OVER (ORDER BY t.created_at, t.id), NULL, t.created_at,
  jsonb_build_object('version', 1, 'money', jsonb_build_object('provider', t.provider, 'amountCents', t.amount_cents,
    'currency', t.currency, 'date', t.created_at, 'reference', t.payment_id, 'sandbox', t.sandbox))
FROM transactions t, document_counters c WHERE c.kind = 'receipt' AND t.type = 'payment' AND t.status = 'completed'
  AND NOT EXISTS (SELECT 1 FROM transaction_documents d WHERE d.transaction_id = t.id);
INSERT INTO transaction_documents (transaction_id, customer_id, kind, number, refers_to, issued_at, snapshot)
SELECT t.id, t.customer_id, 'credit_note', c.last_number + row_number() OVER (ORDER BY t.created_at, t.id), p.id, t.created_at,
  jsonb_build_object('version', 1, 'money', jsonb_build_object('provider', t.provider, 'amountCents', t.amount_cents,
    'currency', t.currency, 'date', t.created_at, 'reference', t.payment_id, 'sandbox', t.sandbox))
FROM transactions t JOIN transactions p ON p.payment_id = t.payment_id AND p.type = 'payment', document_counters c
WHERE c.kind = 'credit_note' AND t.type = 'refund' AND NOT EXISTS (SELECT 1 FROM transaction_documents d WHERE d.transaction_id = t.id);
UPDATE document_counters c SET last_number = (SELECT coalesce(max(number), 0) FROM transaction_documents d WHERE d.kind = c.kind);

-- Chats on a third of the orders, some with messages the customer has not read.
INSERT INTO chat_sequences (order_id, last_sequence, staff_writer, staff_support, customer_read_writer, customer_read_support)
SELECT o.id, 6, 3, 1, CASE WHEN o.id % 7 = 0 THEN 1 ELSE 3 END, 1 FROM orders o WHERE o.id % 3 = 0;

-- The first history entry of every order (the order page and staff's view read it).
INSERT INTO order_status_history (order_id, status_id, created_at)
SELECT o.id, 1, o.created_at FROM orders o;
