import { http, HttpResponse, ws } from 'msw';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { StaffDispute } from '@app/domain/dispute';
import { DISPUTE_MESSAGE } from '@app/domain/dispute/rules';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';

/** ADR 0087: support's disputes on the Money page, resolved with one outcome and a message. */
const SUPPORT_ME = { id: 3, role: 6, firstName: 'Sam', lastName: 'Rivera', email: 'support@example.com' };
const dispute = (change: Partial<StaffDispute> = {}): StaffDispute => ({
  id: 9,
  orderId: 120,
  status: 'open',
  reason: 'cancel_request',
  description: 'I no longer need it.',
  answerBy: '2026-11-22T10:00:00.000Z',
  createdAt: '2026-11-20T10:00:00.000Z',
  requestedRefund: 12.25,
  files: [],
  resolution: null,
  title: 'Order title 120',
  orderStatus: 3,
  idWriter: 2,
  deadline: '2026-12-01T10:00:00.000Z',
  paid: 24.5,
  refundable: 24.5,
  ...change,
});

describe('the disputes queue', { timeout: 30_000 }, () => {
  it('lists an open dispute with its money, checks the outcome’s fields, shows the server’s limit, and resolves', async () => {
    const state = { disputes: [dispute()], puts: [] as unknown[] };
    server.use(
      http.get('/api/en/customers/customer', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
      http.get('/api/staff/me', () => HttpResponse.json(SUPPORT_ME)),
      // The console's chat session (ADR 0076) opens its socket; nothing is said on it here.
      ws.link('ws://localhost:3000/chat/staff/orders/messages').addEventListener('connection', () => undefined),
      http.get('/api/staff/payments/unapplied', () => HttpResponse.json({ payments: [] })),
      http.get('/api/staff/payments/refund-claims', () => HttpResponse.json({ claims: [] })),
      http.get('/api/staff/payments/attention', () => HttpResponse.json({ attempts: [] })),
      http.get('/api/staff/disputes', () => HttpResponse.json({ disputes: state.disputes, total: state.disputes.length })),
      http.put('/api/staff/disputes/:id', async ({ request }) => {
        const body = (await request.json()) as { amount?: number };
        state.puts.push(body);
        if ((body.amount ?? 0) > 24.5)
          return HttpResponse.json(
            {
              message: 'The refund can be at most $24.50, what is left of what was paid.',
              errors: { amount: ['The refund can be at most $24.50, what is left of what was paid.'] },
            },
            { status: 422 },
          );
        const resolved = { ...dispute(), status: 'resolved' as const };
        state.disputes = [];
        return HttpResponse.json({
          ...resolved,
          resolution: {
            outcome: 'partial_refund',
            message: 'Half back.',
            amount: 12.25,
            deadline: null,
            resolvedAt: '2026-11-21T10:00:00.000Z',
          },
        });
      }),
    );
    signIn();
    const { user } = renderApp('/staff/money');
    const list = await screen.findByRole('list', { name: 'Disputes' }, { timeout: 15_000 });
    expect(list).toHaveTextContent('I want to cancel the order');
    expect(list).toHaveTextContent('paid $24.50 · refundable $24.50 · asks for $12.25 back (policy)');
    expect(within(list).getByRole('link', { name: 'Order #120' })).toHaveAttribute('href', '/staff/orders/120');

    await user.click(within(list).getByRole('button', { name: 'Resolve dispute #9' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve dispute #9' });
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    expect(await within(dialog).findByText('Choose the outcome', { selector: 'p' })).toBeInTheDocument();
    expect(within(dialog).getByText(DISPUTE_MESSAGE.messageRequired)).toBeInTheDocument();
    expect(state.puts).toEqual([]);

    await user.selectOptions(within(dialog).getByLabelText('Outcome'), 'partial_refund');
    const amount = within(dialog).getByLabelText('Amount to refund (USD)');
    expect(amount).toHaveValue('12.25');
    await user.clear(amount);
    await user.type(amount, '30');
    await user.type(within(dialog).getByLabelText('Message to the customer'), 'Half back.');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    expect(await within(dialog).findByText('The refund can be at most $24.50, what is left of what was paid.')).toBeInTheDocument();

    await user.clear(amount);
    await user.type(amount, '12.25');
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Resolve dispute #9' })).not.toBeInTheDocument());
    expect(state.puts).toEqual([
      { outcome: 'partial_refund', message: 'Half back.', amount: 30 },
      { outcome: 'partial_refund', message: 'Half back.', amount: 12.25 },
    ]);
    expect(await screen.findByText('No open disputes.')).toBeInTheDocument();
  });
});
