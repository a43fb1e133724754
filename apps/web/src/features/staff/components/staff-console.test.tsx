import { http, HttpResponse, ws } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { StaffOrderView } from '@app/domain/staff';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';

const SUPPORT_ME = { id: 3, role: 6, firstName: 'Sam', lastName: 'Rivera', email: 'support@example.com' };
const WRITER_ME = { id: 2, role: 3, firstName: 'Wes', lastName: 'Writer', email: 'writer@example.com' };

const staffOrder = (id: number, change: Partial<StaffOrderView> = {}): StaffOrderView => ({
  id,
  uid: `uid-staff-${String(id).padStart(8, '0')}`,
  title: `Order title ${id}`,
  workType: { id: 1, name: 'Writing' },
  siteCategory: 1,
  status: 2,
  orderStatus: { id: 2, name: 'Paid' },
  deadline: '2026-12-01T10:00:00.000Z',
  dateCreated: '2026-11-20T10:00:00.000Z',
  finalPrice: 24.5,
  pending: false,
  pages: 2,
  idCustomer: 40,
  idWriter: null,
  reviewBy: null,
  delivered: false,
  amountDue: 0,
  chargeDue: null,
  statusHistory: [{ status: 1, date: '2026-11-20T10:00:00.000Z', by: 'customer', actorId: 40, reason: null }],
  delivery: null,
  extensionRequest: null,
  events: [],
  customerName: 'Mia Customer',
  customerEmail: 'mia@example.com',
  writerName: null,
  pay: 9.8,
  writerDeadline: '2026-11-30T22:00:00.000Z',
  openRevision: false,
  otherOrders: [],
  brief: {
    siteCategory: 1,
    description: 'Explain the causes.',
    credentials: '',
    pages: 2,
    sources: 3,
    urgency: 240,
    paragraphSpacing: 2,
    subject: { id: 4, name: 'History' },
    assignment: { id: 1, name: 'Essay' },
    resumeService: null,
    paperFormat: { id: 1, name: 'APA' },
    academicLevel: { id: 2, name: 'College' },
    resumeLevel: null,
    thesisLevel: null,
    features: { premiumWriter: 1, extraQualityCheck: 1, onePageSummary: 1, originalityReport: 1 },
    preferredWritersList: [],
    preferredWriterAnother: false,
    deadline: '2026-12-01T10:00:00.000Z',
  },
  extensionAlert: null,
  ...change,
});
const NAMES: Record<number, string> = { 1: 'Unpaid', 2: 'Paid', 3: 'In progress', 5: 'Completed', 7: 'Refunded', 8: 'Canceled', 9: 'Hold' };

/** The staff API for `me`: a queue of `total` orders (20 a page) and the order view's routes. */
const serveStaff = (me: typeof SUPPORT_ME, total = 3) => {
  const calls: { queue: URLSearchParams[]; status: unknown[]; writer: unknown[]; payments: unknown[] } = {
    queue: [],
    status: [],
    writer: [],
    payments: [],
  };
  const orders = new Map<number, StaffOrderView>();
  for (let i = 0; i < total; i += 1) orders.set(100 + i, staffOrder(100 + i));
  server.use(
    http.get('/api/en/customers/customer', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
    http.get('/api/staff/me', () => HttpResponse.json(me)),
    http.get('/api/staff/orders', ({ request }) => {
      const params = new URL(request.url).searchParams;
      calls.queue.push(params);
      const status = params.get('status');
      const page = Number(params.get('page'));
      const limit = Number(params.get('limit'));
      const list = [...orders.values()].filter((o) => status === null || o.status === Number(status));
      // ADR 0099: a search past the server's count cap.
      if (params.get('q') === 'essay') return HttpResponse.json({ orders: list.slice(0, limit), total: 1000, totalCapped: true });
      return HttpResponse.json({ orders: list.slice((page - 1) * limit, page * limit), total: list.length, totalCapped: false });
    }),
    http.get('/api/staff/orders/:id', ({ params }) => {
      const order = orders.get(Number(params.id));
      return order ? HttpResponse.json(order) : HttpResponse.json({ message: 'Not found' }, { status: 404 });
    }),
    http.put('/api/staff/orders/:id/status', async ({ params, request }) => {
      const body = (await request.json()) as { status: number; reason?: string };
      calls.status.push(body);
      const order = orders.get(Number(params.id));
      if (!order) return HttpResponse.json({ message: 'Not found' }, { status: 404 });
      // The server's refusal when nothing was recorded as paid (ADR 0072).
      if (body.status === 7) return HttpResponse.json({ message: 'This order has no recorded payment left to refund' }, { status: 409 });
      const next: StaffOrderView = {
        ...order,
        status: body.status,
        orderStatus: { id: body.status, name: NAMES[body.status] ?? '' },
        statusHistory: [
          ...order.statusHistory,
          { status: body.status, date: '2026-11-21T10:00:00.000Z', by: 'support', actorId: 3, reason: body.reason ?? null },
        ],
      };
      orders.set(order.id, next);
      return HttpResponse.json(next);
    }),
    http.post('/api/staff/orders/:id/payments', async ({ params, request }) => {
      const body = (await request.json()) as { reference: string; amount?: number };
      calls.payments.push(body);
      const order = orders.get(Number(params.id));
      if (!order) return HttpResponse.json({ message: 'Not found' }, { status: 404 });
      if (body.reference === 'USED') return HttpResponse.json({ message: 'This payment reference is already recorded' }, { status: 409 });
      const next: StaffOrderView = { ...order, status: 2, orderStatus: { id: 2, name: 'Paid' }, chargeDue: null };
      orders.set(order.id, next);
      return HttpResponse.json(next);
    }),
    http.get('/api/staff/orders/:id/files', () => HttpResponse.json({ files: [] })),
    http.get('/api/staff/revisions', () => HttpResponse.json({ revisions: [], total: 0 })),
    http.get('/api/staff/views', () =>
      HttpResponse.json({
        views: [
          { view: 'paidUnassigned', count: 3 },
          { view: 'dueSoon', count: 0 },
          { view: 'overdue', count: 1 },
          { view: 'onHold', count: 0 },
          { view: 'awaitingSupport', count: 0 },
          { view: 'writerSilent', count: 0 },
          { view: 'revisionsDue', count: 0 },
          { view: 'extensionRequests', count: 0 },
          { view: 'disputes', count: null },
        ],
      }),
    ),
    http.get('/api/staff/writers', ({ request }) => {
      const q = new URL(request.url).searchParams.get('q') ?? '';
      const writers = [
        { id: 2, firstName: 'Wes', lastName: 'Writer', activeOrders: 5, capacity: 5, available: true, rating: 4.5, onTimeRate: 0.9 },
        { id: 9, firstName: 'Nora', lastName: 'Notawriter', activeOrders: 0, capacity: 5, available: true, rating: null, onTimeRate: null },
      ].filter((w) => `${w.firstName} ${w.lastName}`.toLowerCase().includes(q.toLowerCase()));
      return HttpResponse.json({ writers });
    }),
    http.put('/api/staff/orders/:id/writer', async ({ params, request }) => {
      const body = (await request.json()) as { idWriter: number };
      calls.writer.push(body);
      if (body.idWriter !== 2)
        return HttpResponse.json(
          { message: 'This account is not a writer', errors: { idWriter: ['This account is not a writer'] } },
          { status: 422 },
        );
      const order = orders.get(Number(params.id));
      if (!order) return HttpResponse.json({ message: 'Not found' }, { status: 404 });
      const next = { ...order, idWriter: 2, writerName: 'Wes Writer' };
      orders.set(order.id, next);
      return HttpResponse.json(next);
    }),
    // The order chat is not under test here (order-chat.test.tsx): an empty history and a quiet socket.
    http.get('*/chat/api/staff/orders/:id/messages', () => HttpResponse.json({ messages: [] })),
    http.get('*/chat/api/staff/orders/unread', () =>
      HttpResponse.json({ total: 2, orders: [{ orderId: 101, total: 2, writer: 0, support: 2 }] }),
    ),
    ws.link('ws://localhost:3000/chat/staff/orders/messages').addEventListener('connection', () => undefined),
  );
  return calls;
};

afterEach(() => window.localStorage.clear());

describe('staff console', { timeout: 30_000 }, () => {
  it('shows support the queue, filters it by status and pages it through the address bar', async () => {
    const calls = serveStaff(SUPPORT_ME, 45);
    signIn();
    const { router, user } = renderApp('/staff');
    expect(await screen.findByRole('heading', { level: 1, name: 'Orders' }, { timeout: 10_000 })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Orders' });
    expect(within(list).getAllByRole('link')).toHaveLength(20);
    expect(screen.getByText(/45 orders\./)).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: /#100\b/ })).toHaveAttribute('href', '/staff/orders/100');
    // The chat's unread summary marks the orders with customer messages waiting.
    expect(await within(list).findByText('2 unread')).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: /#101\b/ })).toHaveTextContent('2 unread');
    expect(within(list).getByRole('link', { name: /#100\b/ })).not.toHaveTextContent('unread');
    // Support has the money queues in the navigation.
    expect(screen.getByRole('navigation', { name: 'Main' })).toHaveTextContent('Money');

    await user.click(screen.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/staff?page=3'));
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Orders' })).getAllByRole('link')).toHaveLength(5));
    expect(calls.queue.at(-1)?.get('page')).toBe('3');

    // A filter starts again at page 1 and is sent as `status`.
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: '5' } });
    await waitFor(() => expect(currentUrl(router)).toBe('/staff?status=5'));
    expect(await screen.findByText('No orders match')).toBeInTheDocument();
    expect(calls.queue.at(-1)?.get('status')).toBe('5');
    expect(calls.queue.at(-1)?.get('page')).toBe('1');

    // ADR 0089: the views as tiles with their counts; one chosen is sent as `view`; search and sort too.
    const views = screen.getByRole('navigation', { name: 'Views' });
    const unassigned = within(views).getByRole('button', { name: /Paid and unassigned/ });
    await waitFor(() => expect(unassigned).toHaveTextContent('3'));
    expect(within(views).getByRole('button', { name: /Disputes/ })).toHaveTextContent('Not counted yet');
    await user.click(unassigned);
    await waitFor(() => expect(currentUrl(router)).toBe('/staff?status=5&view=paidUnassigned'));
    expect(unassigned).toHaveAttribute('aria-pressed', 'true');
    expect(calls.queue.at(-1)?.get('view')).toBe('paidUnassigned');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'mia@example.com');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.queue.at(-1)?.get('q')).toBe('mia@example.com'));
    fireEvent.change(screen.getByLabelText('Order by'), { target: { value: 'deadline' } });
    await waitFor(() => expect(calls.queue.at(-1)?.get('sort')).toBe('deadline'));
  });

  it('says "more than" for a search the server stopped counting, and pages its first 50 pages', async () => {
    serveStaff(SUPPORT_ME, 25);
    signIn();
    renderApp('/staff?q=essay');
    expect(
      await screen.findByText(/matching “essay”: more than 1,000 orders\. Add a word to narrow the search\./, {}, { timeout: 30_000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Page 50' })).toBeInTheDocument();
  }, 60_000);

  it('records a manual payment on an unpaid order, with its reference, and shows a refusal', async () => {
    const calls = serveStaff(SUPPORT_ME, 1);
    server.use(
      http.get('/api/staff/orders/:id', () =>
        HttpResponse.json(staffOrder(100, { status: 1, orderStatus: { id: 1, name: 'Unpaid' }, chargeDue: 24.5 })),
      ),
    );
    signIn();
    const { user } = renderApp('/staff/orders/100');
    const form = await screen.findByRole('form', { name: 'Record a manual payment' }, { timeout: 10_000 });
    // Unpaid: the only move by hand is Canceled; paid comes from money.
    const select = within(screen.getByRole('form', { name: 'Change status' })).getByLabelText('Move to');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a move…', 'Canceled']);
    expect(within(form).getByLabelText('Amount received (USD)')).toHaveValue('24.50');
    await user.click(within(form).getByRole('button', { name: 'Record payment' }));
    expect(await within(form).findByText('Enter the payment reference')).toBeInTheDocument();
    expect(calls.payments).toEqual([]);
    await user.type(within(form).getByLabelText('Payment reference'), 'USED');
    await user.click(within(form).getByRole('button', { name: 'Record payment' }));
    expect(await within(form).findByText('This payment reference is already recorded')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText('Payment reference'));
    await user.type(within(form).getByLabelText('Payment reference'), 'BANK-42');
    await user.click(within(form).getByRole('button', { name: 'Record payment' }));
    expect(await screen.findByText('Payment recorded: order #100 is Paid')).toBeInTheDocument();
    expect(calls.payments).toEqual([
      { reference: 'USED', amount: 24.5 },
      { reference: 'BANK-42', amount: 24.5 },
    ]);
  });

  it('shows a writer their queue without the money queues, and the order view without support tools', async () => {
    serveStaff(WRITER_ME, 1);
    signIn();
    const { user } = renderApp('/staff');
    expect(await screen.findByRole('heading', { level: 1, name: 'My orders' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).not.toHaveTextContent('Money');
    await user.click(await screen.findByRole('link', { name: /#100\b/ }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Order #100' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Change status' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Assign writer' })).not.toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Deliver files' })).toBeInTheDocument();
    // ADR 0089: the brief, the pay and the writer's deadline; no price.
    const brief = screen.getByRole('region', { name: 'Brief' });
    expect(brief).toHaveTextContent('Explain the causes.');
    expect(brief).toHaveTextContent('History');
    expect(brief).toHaveTextContent('APA');
    expect(screen.getByRole('region', { name: 'Details' })).toHaveTextContent('Your pay$9.80');
    expect(screen.getByRole('region', { name: 'Details' })).not.toHaveTextContent('$24.50');
  });

  it('offers support only the moves allowed now, asks a reason and a confirmation for hold, shows a refusal; assigns a writer', async () => {
    const calls = serveStaff(SUPPORT_ME, 1);
    signIn();
    const { user } = renderApp('/staff/orders/100');
    const status = await screen.findByRole('form', { name: 'Change status' }, { timeout: 10_000 });
    const select = within(status).getByLabelText('Move to');
    // A paid order without a writer: the table's moves by hand (never Paid, In progress or Completed).
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a move…', 'Hold', 'Modified', 'Canceled', 'Refunded']);
    expect(within(status).getByText('Assigning a writer moves the order to In progress.')).toBeInTheDocument();
    expect(within(status).getByRole('button', { name: 'Change status' })).toBeDisabled();

    await user.selectOptions(select, '9');
    await user.click(within(status).getByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Put this order on hold?' });
    // No reason, nothing sent.
    await user.click(within(dialog).getByRole('button', { name: 'Put on hold' }));
    expect(await within(dialog).findByText('Enter the reason')).toBeInTheDocument();
    expect(calls.status).toEqual([]);
    // Keep it closes and sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.status).toEqual([]);

    await user.click(within(status).getByRole('button', { name: 'Change status' }));
    const again = await screen.findByRole('dialog', { name: 'Put this order on hold?' });
    await user.type(within(again).getByLabelText('Reason'), 'Waiting for the customer’s files');
    await user.click(within(again).getByRole('button', { name: 'Put on hold' }));
    expect(await screen.findByText('Status changed to Hold')).toBeInTheDocument();
    expect(calls.status).toEqual([{ status: 9, reason: 'Waiting for the customer’s files' }]);
    // The history shows who and why; the form now offers the moves from Hold.
    const history = screen.getByRole('list', { name: 'Status history' });
    await waitFor(() => expect(history).toHaveTextContent('“Waiting for the customer’s files”'));
    expect(history).toHaveTextContent('by support #3');
    const fromHold = await screen.findByRole('form', { name: 'Change status' });
    expect(
      within(within(fromHold).getByLabelText('Move to'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a move…', 'Paid', 'Canceled', 'Refunded']);

    // A refusal shows the server's message at the field.
    await user.selectOptions(within(fromHold).getByLabelText('Move to'), '7');
    await user.click(within(fromHold).getByRole('button', { name: 'Change status' }));
    const refund = await screen.findByRole('dialog', { name: 'Refund this order?' });
    await user.type(within(refund).getByLabelText('Reason'), 'Customer asked');
    await user.click(within(refund).getByRole('button', { name: 'Refund order' }));
    // At the field and in a notice (which outlives the form when the reloaded order replaces it).
    expect(await within(fromHold).findByText('This order has no recorded payment left to refund')).toBeInTheDocument();
    expect(screen.getAllByText('This order has no recorded payment left to refund')).toHaveLength(2);

    // ADR 0089: the writer list with workload and record; a writer at capacity is warned of.
    const writer = screen.getByRole('form', { name: 'Assign writer' });
    expect(within(writer).getByRole('button', { name: 'Assign writer' })).toBeDisabled();
    await user.click(await within(writer).findByLabelText(/Nora Notawriter/));
    await user.click(within(writer).getByRole('button', { name: 'Assign writer' }));
    expect(await within(writer).findByText('This account is not a writer')).toBeInTheDocument();
    await user.click(within(writer).getByLabelText(/Wes Writer/));
    expect(within(writer).getByLabelText(/Wes Writer/)).toBeChecked();
    expect(within(writer).getByText(/5 of 5 active · available · rated 4.5 · 90 % on time/)).toBeInTheDocument();
    expect(within(writer).getByRole('alert')).toHaveTextContent('Wes Writer is at capacity: 5 active orders of 5.');
    await user.click(within(writer).getByRole('button', { name: 'Assign anyway' }));
    expect(await screen.findByText('Wes Writer assigned')).toBeInTheDocument();
    expect(calls.writer).toEqual([{ idWriter: 9 }, { idWriter: 2 }]);
  });

  it('sends a customer who opens /staff to the 404 page, and a visitor to /login', async () => {
    server.use(http.get('/api/staff/me', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })));
    signIn();
    const first = renderApp('/staff');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' }, { timeout: 10_000 })).toBeInTheDocument();
    first.unmount();
    window.localStorage.clear();
    const second = renderApp('/staff/money');
    await waitFor(() => expect(currentUrl(second.router)).toBe('/login'));
  });

  it('lands a staff sign-in on /staff', async () => {
    serveStaff(SUPPORT_ME, 1);
    server.use(http.post('/api/en/auth/jwt/sign_in', () => HttpResponse.json({ accessToken: 'a.b.c', refreshToken: 'r-1' })));
    const { router, user } = renderApp('/login');
    await user.type(await screen.findByLabelText('Email', {}, { timeout: 10_000 }), 'support@example.com');
    await user.type(screen.getByLabelText('Password', { exact: true }), 'support12345');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/staff'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Orders' })).toBeInTheDocument();
  });
});

describe('money queues (support)', { timeout: 30_000 }, () => {
  it('lists flagged attempts, unapplied payments and refund claims; marks a claim refunded and resolves attempts after confirming', async () => {
    serveStaff(SUPPORT_ME, 1);
    const posts: { path: string; body: unknown }[] = [];
    const state = {
      claims: [
        {
          id: 7,
          orderId: 100,
          customerId: 40,
          customerEmail: 'ann@example.com',
          amount: 12.5,
          currency: 'USD',
          createdAt: '2026-11-20T10:00:00.000Z',
        },
      ],
      attempts: [
        {
          paymentId: 'pay-1',
          orderId: 101,
          customerId: 40,
          customerEmail: 'ann@example.com',
          provider: 'paymentwall',
          amount: 30,
          currency: 'USD',
          state: 'created',
          reason: 'no_status_api',
          checks: 1,
          sandbox: false,
          createdAt: '2026-11-20T10:00:00.000Z',
          since: '2026-11-20T10:31:00.000Z',
        },
      ],
    };
    server.use(
      http.get('/api/staff/payments/unapplied', () =>
        HttpResponse.json({
          payments: [
            {
              paymentId: 'pay-0',
              orderId: 102,
              customerId: 40,
              customerEmail: 'ann@example.com',
              provider: 'fondy',
              amount: 9.99,
              currency: 'USD',
              reason: 'amount_mismatch',
              receivedAt: '2026-11-20T10:00:00.000Z',
            },
          ],
        }),
      ),
      http.post('/api/staff/payments/unapplied/:id/refund', async ({ params, request }) => {
        posts.push({ path: `refund ${String(params.id)}`, body: await request.json() });
        return HttpResponse.json({ paymentId: String(params.id), orderId: 102, transactionId: 60 });
      }),
      http.get('/api/staff/payments/refund-claims', () => HttpResponse.json({ claims: state.claims })),
      http.post('/api/staff/payments/refund-claims/:id/refunded', ({ params }) => {
        posts.push({ path: `claim ${String(params.id)}`, body: null });
        state.claims = [];
        return HttpResponse.json({ id: 7, transactionId: 55 });
      }),
      http.get('/api/staff/payments/attention', () => HttpResponse.json({ attempts: state.attempts })),
      http.post('/api/staff/payments/attention/:id/resolved', async ({ params, request }) => {
        const body = (await request.json()) as { outcome: string };
        posts.push({ path: `attempt ${String(params.id)}`, body });
        state.attempts = [];
        return HttpResponse.json({ paymentId: 'pay-1', outcome: body.outcome, state: 'declined', resolvedAt: '2026-11-21T10:00:00.000Z' });
      }),
    );
    signIn();
    const { user } = renderApp('/staff/money');
    expect(await screen.findByRole('heading', { level: 1, name: 'Money' }, { timeout: 10_000 })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Money' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav).getByRole('link', { name: 'Orders' })).not.toHaveAttribute('aria-current');

    const unapplied = await screen.findByRole('list', { name: 'Unapplied payments' });
    expect(unapplied).toHaveTextContent('$9.99 via Fondy (card)');
    expect(unapplied).toHaveTextContent('The amount differs from the price');
    expect(within(unapplied).getByRole('link', { name: 'Order #102' })).toHaveAttribute('href', '/staff/orders/102');
    // ADR 0089: refund it, with a reason (none: nothing sent), after confirming.
    await user.click(within(unapplied).getByRole('button', { name: /^Refund: \$9\.99 via Fondy \(card\) for order #102/ }));
    const refundDialog = await screen.findByRole('dialog', { name: 'Refund this payment?' });
    await user.click(within(refundDialog).getByRole('button', { name: 'Refund payment' }));
    expect(await within(refundDialog).findByText('Enter the reason')).toBeInTheDocument();
    await user.type(within(refundDialog).getByLabelText('Reason'), 'Paid twice');
    await user.click(within(refundDialog).getByRole('button', { name: 'Refund payment' }));
    expect(await screen.findByText('Payment refunded')).toBeInTheDocument();
    expect(posts).toContainEqual({ path: 'refund pay-0', body: { reason: 'Paid twice' } });
    posts.length = 0;

    const claims = await screen.findByRole('list', { name: 'Refund claims' });
    expect(claims).toHaveTextContent('$12.50');
    await user.click(within(claims).getByRole('button', { name: /Mark the refund of \$12\.50 for order #100/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Mark refunded?' });
    await user.click(within(dialog).getByRole('button', { name: 'Mark refunded' }));
    expect(await screen.findByText('Refund recorded')).toBeInTheDocument();
    expect(await screen.findByText('No open refund claims.')).toBeInTheDocument();

    const attempts = await screen.findByRole('list', { name: 'Payment attempts to check' });
    expect(attempts).toHaveTextContent('the provider cannot be asked');
    await user.click(within(attempts).getByRole('button', { name: /^Decline:/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Decline this attempt?' });
    // Cancel sends nothing.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(posts).toEqual([{ path: 'claim 7', body: null }]);
    await user.click(within(attempts).getByRole('button', { name: /^Decline:/ }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Decline this attempt?' })).getByRole('button', { name: 'Decline attempt' }),
    );
    expect(await screen.findByText('Attempt declined')).toBeInTheDocument();
    expect(await screen.findByText('No payment attempts need a look.')).toBeInTheDocument();
    expect(posts).toEqual([
      { path: 'claim 7', body: null },
      { path: 'attempt pay-1', body: { outcome: 'declined' } },
    ]);
  });
});
