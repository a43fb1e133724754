// Issue 23 / ADR 0081 addendum (branch customer-lean): the server's own CPU per page of the customer's order
// list and transactions list, measured in-process as bench/staff-page-cpu.mjs measures staff's queue (the
// shared setup and measurement: bench/page-cpu.mjs). A busy customer (3,000 of the 6,000 orders, in every
// status, some hidden, with chats, deliveries awaiting review, feedback, revisions, payments, refunds,
// receipts and credit notes) signed in; `/api/en/customers/customer` (the same guard, one primary-key
// query, a small answer) is the floor a guarded customer route costs.
//
// `nice -n -15 node bench/customer-page-cpu.mjs` on CUSTOMER_CPU_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/customer_cpu; a database of its own, created and filled when missing,
// CUSTOMER_CPU_RESEED=1 fills it again). CUSTOMER_CPU_N requests a route (default 1000), CUSTOMER_CPU_ROUNDS
// (3, the best printed), CUSTOMER_CPU_ONLY (a part of the routes' names), CUSTOMER_CPU_PROFILE=/tmp/c.cpuprofile
// (a V8 profile of each measured route), CUSTOMER_CPU_DUMP=file (the answers written, nothing measured: a
// before/after byte-for-byte comparison).
import { benchSettings, dumpAnswers, getter, measureRoutes, prepareDatabase, startApp } from './page-cpu.mjs';

const settings = benchSettings('CUSTOMER_CPU', 'customer_cpu');
const ORDERS = 6000;
const BUSY = 'cpu-busy@example.com';

await prepareDatabase(settings, async (setup) => {
  await setup.query(`SELECT setseed(0.77)`);
  await setup.query(
    `INSERT INTO users (role, email, password_hash, first_name, last_name, status_id)
     SELECT 1, 'cpu-customer-' || g || '@example.com', 'x', 'Customer', 'No ' || g, 1 FROM generate_series(1, 300) g
     UNION ALL SELECT 1, '${BUSY}', 'x', 'Busy', 'Customer', 1
     UNION ALL SELECT 3, 'cpu-writer-' || g || '@example.com', 'x', 'Writer', 'No ' || g, 1 FROM generate_series(1, 20) g`,
  );
  // Every second order is the busy customer's, two years up to now (the ids follow the creation time);
  // finished orders mostly completed, running ones paid, in progress or unpaid; 8 % of the finished or
  // abandoned ones hidden; titles with quotes and non-ASCII letters now and then.
  await setup.query(
    `INSERT INTO orders (uid, customer_id, site_category, work_type_id, level_id, subject_id, paper_format_id, title, pages,
       urgency_hours, writer_id, status_id, hidden, deadline, basic_price_cents, final_price_cents, amount_due_cents,
       completed_at, created_at, updated_at)
     SELECT md5('customer-cpu' || g), CASE WHEN g % 2 = 0 THEN busy ELSE first_customer + g % 300 END,
       (ARRAY[1, 1, 1, 3, 4, 5])[1 + g % 6], 1 + g % 3, 2, 1 + g % 40, 1 + g % 4, title, pages, urgency,
       CASE WHEN s IN (3, 5, 7, 9) THEN first_writer + g % 20 END, s, s IN (1, 5, 7, 8) AND r2 < 0.08,
       deadline, pages * 1800, pages * 1800 - (g % 5) * 100 - g % 7, CASE WHEN s = 1 THEN pages * 1800 - (g % 5) * 100 - g % 7 ELSE 0 END,
       CASE WHEN s = 5 THEN deadline END, created_at, created_at
     FROM (
       SELECT x.*,
         CASE WHEN deadline < now() - interval '2 days' THEN
                CASE WHEN r1 < 0.70 THEN 5 WHEN r1 < 0.82 THEN 8 WHEN r1 < 0.93 THEN 1 WHEN r1 < 0.97 THEN 7 ELSE 3 END
              ELSE CASE WHEN r1 < 0.25 THEN 2 WHEN r1 < 0.70 THEN 3 WHEN r1 < 0.85 THEN 1 WHEN r1 < 0.90 THEN 9 ELSE 5 END
         END AS s
       FROM (
         SELECT g, r1, r2, pages, urgency, title, busy, first_customer, first_writer, created_at,
           created_at + urgency * interval '1 hour' AS deadline
         FROM (
           SELECT g, random() AS r1, random() AS r2, 1 + floor(random() * 30)::int AS pages,
             (ARRAY[6, 24, 72, 168, 336])[1 + floor(random() * 5)::int] AS urgency,
             (ARRAY['The impact of', 'An analysis of', 'Case study:', 'Essay on', 'Reflection on'])[1 + floor(random() * 5)::int]
               || ' ' || (ARRAY['public health', 'climate change', 'nursing ethics', 'the "Cold War"', 'Shakespeare''s tragedies',
                  'Gödel''s theorems', 'data privacy', 'monetary policy'])[1 + floor(random() * 8)::int]
               || CASE WHEN random() < 0.4 THEN ' (HIST ' || (100 + floor(random() * 900)::int) || ')' ELSE '' END AS title,
             now() - interval '720 days' + g * interval '720 days' / ${ORDERS} AS created_at,
             (SELECT id FROM users WHERE email = '${BUSY}') AS busy,
             (SELECT min(id) FROM users WHERE email LIKE 'cpu-customer-%') AS first_customer,
             (SELECT min(id) FROM users WHERE role = 3) AS first_writer
           FROM generate_series(1, ${ORDERS}) g
         ) b
       ) x
     ) o`,
  );
  // The card's facts: a payment pending confirmation, unread chat messages, a delivery awaiting review (its clock far ahead, so no job
  // completes it meanwhile), feedback given, a revision in work.
  await setup.query(`UPDATE orders SET pending = true WHERE status_id = 1 AND id % 4 = 0`);
  await setup.query(
    `INSERT INTO chat_sequences (order_id, last_sequence, staff_writer, staff_support, customer_read_writer, customer_read_support)
     SELECT o.id, 6, 3, 1, CASE WHEN o.id % 7 = 0 THEN 1 ELSE 3 END, 1 FROM orders o WHERE o.id % 3 = 0`,
  );
  await setup.query(
    `INSERT INTO order_deliveries (order_id, delivered_by, delivered_by_role, delivered_at, review_by)
     SELECT o.id, o.writer_id, 3, now() - interval '1 day', now() + interval '60 days' FROM orders o
      WHERE o.status_id = 3 AND o.id % 2 = 0`,
  );
  await setup.query(
    `INSERT INTO order_reviews (order_id, customer_id, rating_halves) SELECT o.id, o.customer_id, 8 FROM orders o
      WHERE o.status_id = 5 AND o.id % 3 = 0`,
  );
  await setup.query(
    `INSERT INTO revisions (order_id, customer_id, status_id, level_id, category_ids, description, deadline, created_at, updated_at)
     SELECT o.id, o.customer_id, 1, 1, '{1}', 'Fix the references', now() + interval '60 days', o.completed_at, o.completed_at
       FROM orders o WHERE o.status_id = 5 AND o.id % 5 = 0`,
  );
  // The money: a paid attempt per paid order (some in sandbox), its payment transaction, a refund for the
  // refunded ones, now and then money parked for support (unapplied, no document); their receipts and
  // credit notes as the money path issues them (bench/scale-lists.sql).
  await setup.query(
    `INSERT INTO payments (id, order_id, customer_id, provider, amount_cents, state, sandbox, created_at, updated_at)
     SELECT 'pay-' || o.id, o.id, o.customer_id, (ARRAY['paycore', 'paypal', 'fondy', 'paymentwall'])[1 + o.id % 4],
       o.final_price_cents, CASE WHEN o.status_id = 7 THEN 'refunded' ELSE 'paid' END, o.id % 11 = 0,
       o.created_at + interval '20 minutes', o.created_at + interval '25 minutes'
     FROM orders o WHERE o.status_id IN (2, 3, 5, 7, 9)`,
  );
  await setup.query(
    `INSERT INTO transactions (customer_id, order_id, payment_id, provider, type, amount_cents, created_at, status, sandbox)
     SELECT p.customer_id, p.order_id, p.id, p.provider, 'payment', p.amount_cents, p.created_at + interval '1 minute',
       CASE WHEN p.order_id % 13 = 0 THEN 'unapplied' ELSE 'completed' END, p.sandbox
     FROM payments p WHERE p.state IN ('paid', 'refunded')`,
  );
  await setup.query(
    `INSERT INTO transactions (customer_id, order_id, payment_id, provider, type, amount_cents, created_at, refund_key, sandbox)
     SELECT p.customer_id, p.order_id, p.id, p.provider, 'refund', p.amount_cents, p.updated_at + interval '3 days', 'payment:' || p.id, p.sandbox
     FROM payments p WHERE p.state = 'refunded'`,
  );
  await setup.query(
    `INSERT INTO transaction_documents (transaction_id, customer_id, kind, number, refers_to, issued_at, snapshot)
     SELECT t.id, t.customer_id, 'receipt', c.last_number + row_number() OVER (ORDER BY t.created_at, t.id), NULL, t.created_at,
       jsonb_build_object('version', 1, 'money', jsonb_build_object('provider', t.provider, 'amountCents', t.amount_cents,
         'currency', t.currency, 'date', t.created_at, 'reference', t.payment_id, 'sandbox', t.sandbox))
     FROM transactions t, document_counters c WHERE c.kind = 'receipt' AND t.type = 'payment' AND t.status = 'completed'`,
  );
  await setup.query(
    `INSERT INTO transaction_documents (transaction_id, customer_id, kind, number, refers_to, issued_at, snapshot)
     SELECT t.id, t.customer_id, 'credit_note', c.last_number + row_number() OVER (ORDER BY t.created_at, t.id),
       (SELECT d.transaction_id FROM transaction_documents d JOIN transactions p ON p.id = d.transaction_id
         WHERE p.payment_id = t.payment_id AND p.type = 'payment'), t.created_at,
       jsonb_build_object('version', 1, 'money', jsonb_build_object('provider', t.provider, 'amountCents', t.amount_cents,
         'currency', t.currency, 'date', t.created_at, 'reference', t.payment_id, 'sandbox', t.sandbox))
     FROM transactions t, document_counters c WHERE c.kind = 'credit_note' AND t.type = 'refund'`,
  );
  await setup.query(
    `UPDATE document_counters c SET last_number = (SELECT coalesce(max(number), 0) FROM transaction_documents d WHERE d.kind = c.kind)`,
  );
});

const { app, db, bearer, close } = await startApp(settings);
const [busy] = await db.query(`SELECT id FROM users WHERE email = $1`, [BUSY]);
const headers = await bearer(busy.id, 1);
const LIST = '/api/en/sites/categories/1/orders';
const TRANSACTIONS = '/api/en/customers/transactions';

// CUSTOMER_CPU_DUMP=file: the raw answers of the list's and the transactions' views (first, deep and
// past-the-end pages, limits 1 to 100, every filter, searches by title and by id, 404s and 422s) and of the
// other order routes that show a card, written and nothing measured.
if (settings.dump) {
  const [shown] = await db.query(`SELECT id FROM orders WHERE customer_id = $1 AND NOT hidden ORDER BY id LIMIT 1 OFFSET 500`, [busy.id]);
  const lists = [
    '',
    'limit=20',
    'limit=100&page=3',
    'limit=20&page=75',
    'limit=7&page=300',
    'limit=1&page=2',
    'limit=20&status=3',
    'limit=20&status=5&page=10',
    'limit=20&dateFrom=2026-01-01&dateTo=2026-03-31',
    'limit=20&q=public%20health',
    'limit=20&q=%22COLD%20war%22',
    'limit=20&q=g%C3%B6del',
    `limit=20&q=%23${shown.id}`,
    `limit=20&q=${shown.id}`,
    `limit=20&idOrder=${shown.id}`,
    'limit=20&hidden=1',
    'limit=20&hidden=1&page=3',
    'limit=20&page=99999',
    'limit=20&q=zzzz',
    'limit=101',
    'limit=20&status=abc',
    'limit=20&dateFrom=2026-02-30',
  ];
  const transactions = ['', 'limit=20', 'limit=100&page=2', 'limit=20&page=50', 'limit=20&page=9999', 'limit=0'];
  const requests = [
    ...lists.map((q) => ({ label: { route: 'list', q }, url: `${LIST}?${q}`, headers })),
    ...lists.slice(0, 2).map((q) => ({ label: { route: 'list, category 3', q }, url: `/api/en/sites/categories/3/orders?${q}`, headers })),
    { label: { route: 'list, category 99', q: '' }, url: '/api/en/sites/categories/99/orders', headers },
    { label: { route: 'list, no token', q: '' }, url: LIST, headers: {} },
    ...transactions.map((q) => ({ label: { route: 'transactions', q }, url: `${TRANSACTIONS}?${q}`, headers })),
    { label: { route: 'transactions, no token', q: '' }, url: TRANSACTIONS, headers: {} },
    { label: { route: 'count', q: '' }, url: '/api/en/orders/count', headers },
  ];
  await dumpAnswers(app, settings.dump, requests);
  await close();
  process.exit(0);
}

const get = getter(app);
const total = (await get(`${LIST}?limit=20`, headers)).json().total;
const transactionTotal = (await get(`${TRANSACTIONS}?limit=16`, headers)).json().total;
await measureRoutes({
  app,
  settings,
  title: 'customer page CPU',
  countRows: (json) => (json.orders ?? json.transactions)?.length,
  routes: [
    { name: 'floor: customer', url: '/api/en/customers/customer' },
    { name: 'list, 12', url: LIST },
    { name: 'list, 20', url: `${LIST}?limit=20` },
    { name: 'list, deep page', url: `${LIST}?limit=20&page=${Math.ceil(total / 20 / 2)}` },
    { name: 'list, status', url: `${LIST}?limit=20&status=3` },
    { name: 'list, search', url: `${LIST}?limit=20&q=public%20health` },
    { name: 'list, hidden', url: `${LIST}?limit=20&hidden=1` },
    { name: 'transactions, 16', url: TRANSACTIONS },
    { name: 'transactions, deep', url: `${TRANSACTIONS}?limit=16&page=${Math.ceil(transactionTotal / 16 / 2)}` },
  ].map((r) => ({ ...r, headers })),
});
await close();
