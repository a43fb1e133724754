import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { CancellationQuote, Dispute } from '@app/domain/dispute';
import { DISPUTE_MESSAGE } from '@app/domain/dispute/rules';
import { server } from '@/testing/msw-server';
import { orderDetailFixture, signIn } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { installFakeXhr } from '@/testing/fake-xhr';

/** ADR 0087: the order page's cancel panel: the live refund figure per stage, the cancel, a dispute and its outcome. */
const quoteOf = (q: Partial<CancellationQuote>): CancellationQuote => ({
  allowed: true,
  refund: 90,
  stage: 'before_work',
  action: 'cancel',
  destination: 'Fondy (sandbox: no real money moves)',
  inProgressRefundPercent: 50,
  ...q,
});
const disputeOf = (d: Partial<Dispute>): Dispute => ({
  id: 7,
  orderId: 42,
  status: 'open',
  reason: 'quality',
  description: 'The sources are missing.',
  answerBy: '2030-01-03T12:00:00.000Z',
  createdAt: '2030-01-01T12:00:00.000Z',
  requestedRefund: null,
  files: [],
  resolution: null,
  ...d,
});

const serve = ({ status = 2, quote, disputes = [] }: { status?: number; quote: CancellationQuote; disputes?: Dispute[] }) => {
  const state = { quote, disputes, cancels: [] as unknown[] };
  server.use(
    http.get('/api/en/orders/42', () =>
      HttpResponse.json(orderDetailFixture({ id: 42, status, orderStatus: { id: status, name: 'Paid' } })),
    ),
    http.get('/api/en/orders/42/cancellation', () => HttpResponse.json(state.quote)),
    http.get('/api/en/orders/42/disputes', () => HttpResponse.json({ disputes: state.disputes })),
    http.post('/api/en/orders/42/cancellation', async ({ request }) => {
      state.cancels.push(await request.json());
      state.quote = quoteOf({
        allowed: false,
        refund: 0,
        stage: 'closed',
        action: 'none',
        reason: 'This order is already canceled.',
        destination: null,
      });
      return HttpResponse.json({ canceled: true, refund: 90, dispute: null });
    }),
  );
  return state;
};

const open = async () => {
  signIn();
  const app = renderApp('/orderinfo/42/details');
  await screen.findByRole('region', { name: /Cancel or dispute|A problem with this order/ }, { timeout: 10_000 });
  return app;
};

afterEach(() => vi.unstubAllGlobals());

describe('the cancel panel', { timeout: 20_000 }, () => {
  it('before work: says what comes back and where, and cancels at once with the reason', async () => {
    const state = serve({ quote: quoteOf({}) });
    const { user } = await open();
    const panel = screen.getByRole('region', { name: 'Cancel or dispute' });
    expect(within(panel).getByTestId('cancel-quote')).toHaveTextContent(
      'No writer has started yet: a cancel now gives back everything you paid, $90.00. The money goes back to Fondy (sandbox: no real money moves).',
    );
    await user.click(within(panel).getByRole('button', { name: 'Cancel order' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel the order' });
    await user.type(within(dialog).getByLabelText('Why are you canceling? (optional)'), 'Found the sources myself');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel and refund $90.00' }));
    await waitFor(() => expect(state.cancels).toEqual([{ reason: 'Found the sources myself' }]));
    // The quote is read again: a canceled order has nothing more to cancel.
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Cancel or dispute' })).not.toBeInTheDocument());
  });

  it('in progress: the policy share, "Ask to cancel" and a dispute with a reason, a required description and files', async () => {
    serve({ status: 3, quote: quoteOf({ stage: 'in_progress', action: 'dispute', refund: 45, reason: 'x' }) });
    const requests = installFakeXhr();
    const { user } = await open();
    const panel = screen.getByRole('region', { name: 'Cancel or dispute' });
    expect(within(panel).getByTestId('cancel-quote')).toHaveTextContent(
      'a cancel now can give back 50% of what you paid (less any refund so far), $45.00',
    );
    expect(within(panel).getByRole('button', { name: 'Ask to cancel' })).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Open a dispute' }));
    const dialog = await screen.findByRole('dialog', { name: 'Open a dispute' });
    await user.click(within(dialog).getByRole('button', { name: 'Send to support' }));
    expect(await within(dialog).findByText(DISPUTE_MESSAGE.reasonInvalid)).toBeInTheDocument();
    expect(within(dialog).getByText(DISPUTE_MESSAGE.descriptionRequired)).toBeInTheDocument();
    expect(requests).toHaveLength(0);

    await user.selectOptions(within(dialog).getByLabelText('Reason'), 'quality');
    await user.type(within(dialog).getByLabelText('What went wrong?'), 'The sources are missing.');
    await user.upload(within(dialog).getByLabelText('Files (optional, up to 5)'), [
      new File(['%PDF'], 'proof.pdf', { type: 'application/pdf' }),
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Send to support' }));
    await waitFor(() => expect(requests).toHaveLength(1));
    const xhr = requests[0]!;
    expect(xhr.url).toBe('/api/en/orders/42/disputes');
    expect([...(xhr.body?.keys() ?? [])]).toEqual(['reason', 'description', 'files']);
    expect(xhr.body?.get('description')).toBe('The sources are missing.');
    xhr.answer(200, disputeOf({}));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Open a dispute' })).not.toBeInTheDocument());
  });

  it('shows an open dispute with its answer date, and a resolved one with its outcome and refund', async () => {
    serve({
      status: 5,
      quote: quoteOf({ stage: 'delivered', action: 'dispute', allowed: false, refund: 0, destination: null }),
      disputes: [
        disputeOf({ id: 8 }),
        disputeOf({
          id: 7,
          status: 'resolved',
          resolution: {
            outcome: 'partial_refund',
            amount: 20,
            message: 'We refund a part.',
            deadline: null,
            resolvedAt: '2030-01-02T12:00:00.000Z',
          },
        }),
      ],
    });
    await open();
    const list = screen.getByRole('list', { name: 'Disputes' });
    const [openOne, resolved] = within(list).getAllByRole('listitem');
    expect(openOne).toHaveTextContent('Open. Support answers by');
    expect(resolved).toHaveTextContent('Resolved: Partial refund, $20.00 refunded');
    expect(resolved).toHaveTextContent('Support: We refund a part.');
    // An open dispute: no second one, no cancel.
    expect(screen.queryByRole('button', { name: 'Open a dispute' })).not.toBeInTheDocument();
  });
});
