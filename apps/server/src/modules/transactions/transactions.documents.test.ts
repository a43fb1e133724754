import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { defaultOrderForm, documentFileName, RECEIPTS_MESSAGE, ROLE, toOrderBody, type OrderFormValues } from '@app/domain';
import { createAccessTokens } from '../auth';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { insertCustomer } from '../../testing/factories';
import { recordPaymentTransaction } from './index';
import { CATCH_UP_AT_START } from './transactions.documents';

/**
 * Issue 24, ADR 0085: each settled payment gets a numbered receipt and each refund a credit note naming
 * it, issued in the transaction that writes the money, numbered without gaps, frozen at issue time, and
 * downloaded as a PDF (one) or a ZIP (a year) by their customer only.
 */

let t: TestApp;
let support: string;
let seq = 0;

beforeAll(async () => {
  t = await buildTestApp({
    env: { SELLER_NAME: 'Essay Works Ltd', SELLER_ADDRESS: '1 Quay Street|Dublin D02 X285|Ireland', SELLER_TAX_ID: 'IE1234567T' },
  });
  const [row] = await t.db.query<{ id: number }>(`SELECT id FROM users WHERE email = 'support@example.com'`);
  support = await createAccessTokens(t.config.jwtSecret ?? '', t.clock).sign({ userId: row?.id ?? 0, role: ROLE.support });
});
afterAll(async () => {
  await t?.close();
});

type Who = { id: number; token: string };
const customer = () => insertCustomer(t, `receipts-${++seq}@example.com`);
const auth = (who: Who) => ({ authorization: `Bearer ${who.token}` });
const body = (overrides: Partial<OrderFormValues> = {}) =>
  toOrderBody({ ...defaultOrderForm(1), subject: 4, title: 'Receipted essay', details: 'Explain causes and mitigation.', ...overrides }, 1);

/** An order created through the API and paid through the Fondy sandbox: the real money path. */
const paidOrder = async (who: Who, overrides: Partial<OrderFormValues> = {}) => {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/en/sites/categories/1/orders',
    headers: auth(who),
    payload: body(overrides),
  });
  expect(created.statusCode, created.body).toBe(200);
  const { id, uid } = created.json<{ id: number; uid: string }>();
  const res = await t.app.inject({ method: 'GET', url: `/checkout/fondy/order/${uid}?hashDevice=dev-hash` });
  const path = new URL(String(res.headers.location), 'http://x').pathname;
  const pay = await t.app.inject({ method: 'POST', url: `${path}/pay` });
  expect(pay.headers.location).toBe(`/orderinfo/${id}/details?payment=success`);
  return { id, paymentId: path.split('/').at(-1) ?? '' };
};

interface ListedTransaction {
  id: number;
  orderId: number;
  type: string;
  amount: number;
  document?: { kind: string; number: string } | null;
}
const transactions = async (who: Who) =>
  (await t.app.inject({ method: 'GET', url: '/api/en/customers/transactions?limit=100', headers: auth(who) })).json<{
    transactions: ListedTransaction[];
  }>().transactions;
const download = (who: Who, id: number) =>
  t.app.inject({ method: 'GET', url: `/api/en/customers/transactions/${id}/receipt`, headers: auth(who) });

/** The text of every page, read back with pdf.js (what a PDF reader shows). */
const pdfText = async (bytes: Buffer | Uint8Array): Promise<string> => {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, verbosity: 0 }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= pdf.numPages; i += 1) {
    const content = await (await pdf.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await pdf.destroy();
  return pages.join('\n').replace(/\s+/g, ' ');
};

const documentsOf = (customerId: number) =>
  t.db.query<{ transaction_id: number; kind: string; number: number; refers_to: number | null }>(
    'SELECT transaction_id, kind, number, refers_to FROM transaction_documents WHERE customer_id = $1 ORDER BY transaction_id',
    [customerId],
  );
const lastNumber = async (kind: string) =>
  Number((await t.db.query<{ n: number }>('SELECT last_number AS n FROM document_counters WHERE kind = $1', [kind]))[0]?.n);

describe('receipts (ADR 0085)', () => {
  it('a settled payment gets a numbered receipt: the PDF names the seller, the buyer as billed, the order, its lines, amount, provider and date', async () => {
    const me = await customer();
    const billing = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/billing',
      headers: auth(me),
      payload: {
        name: 'Ada Lovelace',
        company: 'Analytical Engines plc',
        taxId: 'GB123456789',
        address: '12 St James Square\nLondon SW1Y 4JH',
      },
    });
    expect(billing.statusCode, billing.body).toBe(200);
    expect(billing.json<{ billing: unknown }>().billing).toEqual({
      name: 'Ada Lovelace',
      company: 'Analytical Engines plc',
      taxId: 'GB123456789',
      address: '12 St James Square\nLondon SW1Y 4JH',
    });
    const order = await paidOrder(me, { pages: 3, premiumWriter: true });
    const [payment] = await transactions(me);
    expect(payment).toMatchObject({ orderId: order.id, type: 'payment', document: { kind: 'receipt' } });
    expect(payment?.document?.number).toMatch(/^R-\d{6}$/);

    const res = await download(me, payment?.id ?? 0);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="receipt-${payment?.document?.number}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = await pdfText(res.rawPayload);
    for (const expected of [
      'Receipt',
      `No. ${payment?.document?.number}`,
      'Essay Works Ltd',
      '1 Quay Street',
      'Dublin D02 X285',
      'Tax ID: IE1234567T',
      'Ada Lovelace',
      'Analytical Engines plc',
      'Tax ID: GB123456789',
      'London SW1Y 4JH',
      `Order #${order.id}: Receipted essay`,
      'Writing · Essay (any type)',
      '3 pages',
      'Premium writer',
      'Amount paid',
      `$${payment?.amount.toFixed(2)}`,
      'Paid with Fondy',
      order.paymentId,
      'Sandbox payment: no money moved.',
    ])
      expect(text).toContain(expected);
  });

  it('is frozen at payment time: a later billing change leaves it byte for byte as it was; the next payment prints the new details', async () => {
    const me = await customer();
    await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/billing',
      headers: auth(me),
      payload: { name: 'First Name Ltd', company: '', taxId: '', address: 'Old Road 1' },
    });
    await paidOrder(me);
    const [first] = await transactions(me);
    const before = await download(me, first?.id ?? 0);
    await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer/billing',
      headers: auth(me),
      payload: { name: 'Second Name GmbH', company: '', taxId: 'DE999', address: 'New Street 2' },
    });
    const after = await download(me, first?.id ?? 0);
    expect(Buffer.compare(before.rawPayload, after.rawPayload)).toBe(0);
    const text = await pdfText(after.rawPayload);
    expect(text).toContain('First Name Ltd');
    expect(text).not.toContain('Second Name GmbH');

    await paidOrder(me);
    const [second] = await transactions(me);
    expect(second?.id).not.toBe(first?.id);
    const next = await pdfText((await download(me, second?.id ?? 0)).rawPayload);
    expect(next).toContain('Second Name GmbH');
    expect(next).toContain('Tax ID: DE999');

    // The personal-data report's `receipts` section: each document with the buyer as printed on it.
    const report = await t.app.inject({ method: 'GET', url: `/api/en/customers/customer/gdpr?id=${me.id}`, headers: auth(me) });
    expect(report.statusCode).toBe(200);
    const { receipts } = report.json<{ receipts: { id: number; kind: string; buyer: { name: string } }[] }>();
    expect(receipts.map((r) => [r.id, r.kind, r.buyer.name])).toEqual([
      [first?.id, 'receipt', 'First Name Ltd'],
      [second?.id, 'receipt', 'Second Name GmbH'],
    ]);
  });

  it('the database refuses to change or delete an issued document', async () => {
    const me = await customer();
    await paidOrder(me);
    const [doc] = await documentsOf(me.id);
    await expect(
      t.db.query(`UPDATE transaction_documents SET snapshot = '{}'::jsonb WHERE transaction_id = $1`, [doc?.transaction_id]),
    ).rejects.toThrow(/immutable/);
    await expect(t.db.query('DELETE FROM transaction_documents WHERE transaction_id = $1', [doc?.transaction_id])).rejects.toThrow(
      /immutable/,
    );
  });

  it("another customer's transaction, an unknown id and money without a document answer 404", async () => {
    const [me, other] = [await customer(), await customer()];
    await paidOrder(me);
    const [mine] = await transactions(me);
    expect((await download(other, mine?.id ?? 0)).statusCode).toBe(404);
    expect((await download(me, 2_000_000_000)).statusCode).toBe(404);
    // ADR 0078: a path id that is not an id answers the same 404; one longer than 20 characters is refused before any work.
    expect((await download(me, -1)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/en/customers/transactions/${'9'.repeat(21)}/receipt`, headers: auth(me) }))
        .statusCode,
    ).toBe(422);
    // Parked money (ADR 0036) is listed without a document and has none to download.
    const [order] = await t.db.query<{ id: number }>('SELECT id FROM orders WHERE customer_id = $1', [me.id]);
    await t.db.transaction((tx) =>
      recordPaymentTransaction(tx, {
        customerId: me.id,
        orderId: order?.id ?? 0,
        paymentId: null as unknown as string, // money recorded without an attempt
        provider: 'fondy',
        amountCents: 100,
        currency: 'USD',
        now: t.clock.now(),
        status: 'unapplied',
      }),
    );
    const parked = (await transactions(me)).find((x) => x.amount === 1);
    expect(parked?.document).toBeNull();
    expect((await download(me, parked?.id ?? 0)).statusCode).toBe(404);
    expect((await download(me, mine?.id ?? 0)).statusCode).toBe(200);
  });

  it('numbers have no gaps: concurrent payments take consecutive numbers, and a rolled-back payment takes none', async () => {
    const me = await customer();
    const start = await lastNumber('receipt');
    await Promise.all(Array.from({ length: 6 }, () => paidOrder(me)));
    const numbers = (await documentsOf(me.id)).map((d) => d.number).sort((a, b) => a - b);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6].map((n) => start + n));

    const [order] = await t.db.query<{ id: number }>('SELECT id FROM orders WHERE customer_id = $1 LIMIT 1', [me.id]);
    await expect(
      t.db.transaction(async (tx) => {
        await recordPaymentTransaction(tx, {
          customerId: me.id,
          orderId: order?.id ?? 0,
          paymentId: null as unknown as string, // money recorded without an attempt
          provider: 'fondy',
          amountCents: 500,
          currency: 'USD',
          now: t.clock.now(),
        });
        throw new Error('the payment fails after its receipt');
      }),
    ).rejects.toThrow('fails after');
    expect(await lastNumber('receipt')).toBe(start + 6);
    await paidOrder(me);
    expect(
      (await documentsOf(me.id))
        .map((d) => d.number)
        .sort((a, b) => a - b)
        .at(-1),
    ).toBe(start + 7);
  });

  it("a refund gets a credit note that names the payment's receipt", async () => {
    const me = await customer();
    const order = await paidOrder(me);
    const refund = await t.app.inject({
      method: 'PUT',
      url: `/api/staff/orders/${order.id}/status`,
      headers: { authorization: `Bearer ${support}` },
      payload: { status: 7, reason: 'Customer asked' },
    });
    expect(refund.statusCode, refund.body).toBe(200);
    const list = await transactions(me);
    const payment = list.find((x) => x.type === 'payment');
    const credit = list.find((x) => x.type === 'refund');
    expect(credit?.document?.number).toMatch(/^CN-\d{6}$/);
    const docs = await documentsOf(me.id);
    expect(docs.find((d) => d.kind === 'credit_note')?.refers_to).toBe(payment?.id);
    const res = await download(me, credit?.id ?? 0);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="credit-note-${credit?.document?.number}.pdf"`);
    const text = await pdfText(res.rawPayload);
    expect(text).toContain('Credit note');
    expect(text).toContain(`for receipt ${payment?.document?.number}`);
    expect(text).toContain('Amount refunded');
    expect(text).toContain(`-$${credit?.amount.toFixed(2)}`);
  });
});

/** The entries of a ZIP: name and bytes. */
const unzip = (bytes: Buffer): Promise<{ name: string; data: Buffer }[]> =>
  new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('no zip'));
      const entries: { name: string; data: Buffer }[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.push({ name: entry.fileName, data: Buffer.concat(chunks) });
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });

describe("the browser's download manager (ADR 0080)", () => {
  it('a link asked with the token fetches the PDF and the ZIP without it; only the customer is given one, only for its path', async () => {
    const [me, other] = [await customer(), await customer()];
    await paidOrder(me);
    const [mine] = await transactions(me);
    const linkOf = async (who: Who, path: string) => {
      const res = await t.app.inject({ method: 'GET', url: `${path}${path.includes('?') ? '&' : '?'}link=1`, headers: auth(who) });
      return { status: res.statusCode, url: res.statusCode === 200 ? res.json<{ url: string }>().url : '' };
    };
    const receipt = `/api/en/customers/transactions/${mine?.id}/receipt`;
    const link = await linkOf(me, receipt);
    expect(link.status).toBe(200);
    const pdf = await t.app.inject({ method: 'GET', url: link.url });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(await pdfText(pdf.rawPayload)).toContain('Receipt');
    // Another customer's document gets no link; a ticket is good for its own path only.
    expect((await linkOf(other, receipt)).status).toBe(404);
    const ticket = new URL(link.url, 'http://x').search;
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/en/customers/transactions/${(mine?.id ?? 0) + 1}/receipt${ticket}` })).statusCode,
    ).toBe(401);

    const year = t.clock.now().getUTCFullYear();
    const zipLink = await linkOf(me, `/api/en/customers/receipts.zip?year=${year}`);
    expect(zipLink.status).toBe(200);
    const zip = await t.app.inject({ method: 'GET', url: zipLink.url });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect((await linkOf(other, `/api/en/customers/receipts.zip?year=${year - 3}`)).status).toBe(404);
  });
});

describe('a year as one ZIP (ADR 0085)', () => {
  it("holds every receipt and credit note of the year, each a readable PDF, and only the customer's", async () => {
    const [me, other] = [await customer(), await customer()];
    const year = t.clock.now().getUTCFullYear();
    t.clock.set(new Date(Date.UTC(year - 1, 5, 1, 12)));
    await paidOrder(me);
    t.clock.set(new Date());
    const order = await paidOrder(me);
    await paidOrder(other);
    await t.app.inject({
      method: 'PUT',
      url: `/api/staff/orders/${order.id}/status`,
      headers: { authorization: `Bearer ${support}` },
      payload: { status: 7, reason: 'Refund for the ZIP' },
    });
    const years = await t.app.inject({ method: 'GET', url: '/api/en/customers/receipts/years', headers: auth(me) });
    expect(years.json()).toEqual({ years: [year, year - 1] });

    const res = await t.app.inject({ method: 'GET', url: `/api/en/customers/receipts.zip?year=${year}`, headers: auth(me) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="receipts-${year}.zip"`);
    const entries = await unzip(res.rawPayload);
    const docs = await t.db.query<{ kind: 'receipt' | 'credit_note'; number: number }>(
      `SELECT kind, number FROM transaction_documents WHERE customer_id = $1 AND issued_at >= $2 ORDER BY issued_at, transaction_id`,
      [me.id, new Date(Date.UTC(year, 0, 1))],
    );
    expect(docs.map((d) => d.kind)).toEqual(['receipt', 'credit_note']);
    expect(entries.map((e) => e.name)).toEqual(docs.map((d) => documentFileName(d.kind, d.number)));
    expect(await pdfText(entries[0]?.data ?? Buffer.alloc(0))).toContain('Receipt');
    expect(await pdfText(entries[1]?.data ?? Buffer.alloc(0))).toContain('Credit note');

    const last = await unzip(
      (await t.app.inject({ method: 'GET', url: `/api/en/customers/receipts.zip?year=${year - 1}`, headers: auth(me) })).rawPayload,
    );
    expect(last).toHaveLength(1);
    const none = await t.app.inject({ method: 'GET', url: `/api/en/customers/receipts.zip?year=${year - 2}`, headers: auth(me) });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ message: RECEIPTS_MESSAGE.noneInYear(year - 2) });
    expect((await t.app.inject({ method: 'GET', url: '/api/en/customers/receipts.zip?year=99999', headers: auth(me) })).statusCode).toBe(
      422,
    );
    expect((await t.app.inject({ method: 'GET', url: `/api/en/customers/receipts.zip?year=${year}` })).statusCode).toBe(401);
  });
});

describe('money recorded without a document (before migration 0022, or by the demo seed)', () => {
  it('gets its documents at the next start, oldest first, the credit note naming its receipt', async () => {
    const me = await customer();
    const [order] = await t.db.query<{ id: number }>(
      `INSERT INTO orders (uid, customer_id, site_category, work_type_id, level_id, title, pages, urgency_hours, deadline, basic_price_cents, final_price_cents, status_id)
       VALUES ($1, $2, 1, 1, 2, 'Seeded order', 2, 240, now() + interval '5 days', 2400, 2400, 7) RETURNING id`,
      [`seeded-${me.id}-0123456789ab`, me.id],
    );
    await t.db.query(
      `INSERT INTO transactions (customer_id, order_id, provider, type, amount_cents, created_at) VALUES ($1, $2, 'paypal', 'payment', 2400, now() - interval '2 days')`,
      [me.id, order?.id],
    );
    await t.db.query(
      `INSERT INTO transactions (customer_id, order_id, provider, type, amount_cents, created_at, refund_key)
       VALUES ($1, $2, 'paypal', 'refund', 2400, now() - interval '1 day', $3)`,
      [me.id, order?.id, `order:${order?.id}`],
    );
    expect(await documentsOf(me.id)).toEqual([]);
    const again = await buildTestApp({ db: t.db, env: { SELLER_NAME: 'Essay Works Ltd' } });
    await again.close();
    const docs = await documentsOf(me.id);
    expect(docs.map((d) => d.kind)).toEqual(['receipt', 'credit_note']);
    expect(docs[1]?.refers_to).toBe(docs[0]?.transaction_id);
    const refund = (await transactions(me)).find((x) => x.type === 'refund');
    expect(await pdfText((await download(me, refund?.id ?? 0)).rawPayload)).toContain('Refunded to PayPal');
  });
});

describe('a backlog of money without documents (ADR 0099)', () => {
  it('does not hold the start: the first batches before it answers, the rest in the background, each once', async () => {
    const me = await customer();
    const [order] = await t.db.query<{ id: number }>(
      `INSERT INTO orders (uid, customer_id, site_category, work_type_id, level_id, title, pages, urgency_hours, deadline, basic_price_cents, final_price_cents, status_id)
       VALUES ($1, $2, 1, 1, 2, 'Backlog order', 2, 240, now() + interval '5 days', 2400, 2400, 7) RETURNING id`,
      [`backlog-${me.id}-0123456789ab`, me.id],
    );
    const backlog = CATCH_UP_AT_START * 200 + 37;
    await t.db.query(
      `INSERT INTO transactions (customer_id, order_id, provider, type, amount_cents, created_at)
       SELECT $1, $2, 'paypal', 'payment', 100, now() - g * interval '1 minute' FROM generate_series(1, ${backlog}) g`,
      [me.id, order?.id],
    );
    const again = await buildTestApp({ db: t.db });
    try {
      const atStart = (await documentsOf(me.id)).length;
      expect(atStart).toBeGreaterThanOrEqual(CATCH_UP_AT_START * 200);
      await expect.poll(async () => (await documentsOf(me.id)).length, { timeout: 60_000, interval: 200 }).toBe(backlog);
    } finally {
      await again.close();
    }
    const [dup] = await t.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT transaction_id FROM transaction_documents GROUP BY transaction_id HAVING count(*) > 1) d`,
    );
    expect(dup?.n).toBe(0);
  });
});

describe('billing details on the profile (ADR 0085)', () => {
  it('are in GET and PUT of the profile, and checked on the raw input', async () => {
    const me = await customer();
    const profile = await t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: auth(me) });
    expect(profile.json<{ billing: unknown }>().billing).toEqual({ name: '', company: '', taxId: '', address: '' });
    const put = (payload: Record<string, string>) =>
      t.app.inject({ method: 'PUT', url: '/api/en/customers/customer/billing', headers: auth(me), payload });
    expect((await put({ name: 'a'.repeat(101), company: '', taxId: '', address: '' })).statusCode).toBe(422);
    expect((await put({ name: 'Tab\there', company: '', taxId: '', address: '' })).statusCode).toBe(422);
    expect((await put({ name: 'Ok', company: 'Line\nbreak', taxId: '', address: '' })).statusCode).toBe(422);
    expect((await put({ name: 'Ok' })).statusCode).toBe(422);
    const ok = await put({ name: '  Grace Hopper ', company: '', taxId: '', address: 'One\r\nTwo' });
    expect(ok.json<{ billing: unknown }>().billing).toEqual({ name: 'Grace Hopper', company: '', taxId: '', address: 'One\nTwo' });
    // The profile PUT keeps them when its body has none, and sets them when it has.
    const base = {
      enabledFacebookMessenger: false,
      enabledNewsletters: false,
      enabledNightCalls: false,
      firstName: 'Grace',
      lastName: 'H',
      phone: '',
    };
    const kept = await t.app.inject({ method: 'PUT', url: '/api/en/customers/customer', headers: auth(me), payload: base });
    expect(kept.json<{ billing: { name: string } }>().billing.name).toBe('Grace Hopper');
    const set = await t.app.inject({
      method: 'PUT',
      url: '/api/en/customers/customer',
      headers: auth(me),
      payload: { ...base, billing: { name: 'G. Hopper', company: 'Navy', taxId: '', address: '' } },
    });
    expect(set.json<{ billing: unknown }>().billing).toEqual({ name: 'G. Hopper', company: 'Navy', taxId: '', address: '' });
    const anonymous = { name: '', company: '', taxId: '', address: '' };
    expect((await t.app.inject({ method: 'PUT', url: '/api/en/customers/customer/billing', payload: anonymous })).statusCode).toBe(401);
  });
});
