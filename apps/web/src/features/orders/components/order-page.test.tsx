import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { OrderDetail } from '@app/domain/order';
import { server } from '@/testing/msw-server';
import { orderDetailFixture, settingsFixture, signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';
import { installFakeXhr } from '@/testing/fake-xhr';

const serveOrder = (overrides: Partial<OrderDetail>) => {
  let order = orderDetailFixture({ id: 42, ...overrides });
  server.use(http.get('/api/en/orders/42', () => HttpResponse.json(order)));
  return { update: (change: Partial<OrderDetail>) => (order = { ...order, ...change }) };
};

const openOrder = async (tab = 'details') => {
  signIn();
  const app = renderApp(`/orderinfo/42/${tab}`);
  // The first render imports the lazy route modules: slow on a busy 2-core machine.
  await screen.findByRole('tab', { name: 'Files' }, { timeout: 10_000 });
  return app;
};

const COMPLETED = { status: 5, orderStatus: { id: 5, name: 'Completed' } } as const;

afterEach(() => vi.unstubAllGlobals());

describe('order details', { timeout: 20_000 }, () => {
  it('shows the chosen fields, features, price breakdown, discount and status history', async () => {
    serveOrder({
      statusHistory: [
        { status: 1, date: '2029-12-30T12:00:00.000Z' },
        { status: 2, date: '2029-12-30T13:00:00.000Z' },
        { status: 9, date: '2029-12-30T14:00:00.000Z', by: 'support', reason: 'Waiting for your sources' },
      ],
    });
    await openOrder();
    expect(screen.getByText('Microplastics in Freshwater Ecosystems', { selector: 'p' })).toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'Order details' });
    expect(within(details).getByText('Biology')).toBeInTheDocument();
    expect(within(details).getByText('Undergraduate')).toBeInTheDocument();
    expect(within(details).getByText('4 (1200 words)')).toBeInTheDocument();
    expect(within(details).getByText('10 days')).toBeInTheDocument();
    const features = screen.getByRole('region', { name: 'Features' });
    expect(within(features).getByText('Premium writer').nextSibling).toHaveTextContent('Yes');
    expect(within(features).getByText('Extra quality check').nextSibling).toHaveTextContent('No');
    const price = screen.getByRole('region', { name: 'Price' });
    expect(within(price).getByText('Basic price').nextSibling).toHaveTextContent('$80.00');
    expect(within(price).getByText('Discount (WELCOME10)').nextSibling).toHaveTextContent('−$10.00');
    expect(within(price).getByText('Total').nextSibling).toHaveTextContent('$90.00');
    const history = screen.getByRole('region', { name: 'Status history' });
    expect(
      within(history)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('p')?.textContent),
    ).toEqual(['Unpaid', 'Paid', 'Hold']);
    // ADR 0071: a hold, a cancel or a refund shows support's reason.
    expect(within(history).getByText('Waiting for your sources')).toBeInTheDocument();
    expect(screen.getByText(/\d+ d \d+ h \d+ min left/)).toBeInTheDocument();
  });

  it('offers Pay, Edit and Clone on an unpaid order, and no feedback', async () => {
    serveOrder({});
    await openOrder();
    expect(screen.getByRole('button', { name: 'Pay $90.00' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/order?editingOrderId=42');
    expect(screen.getByRole('link', { name: 'Clone' })).toHaveAttribute('href', '/order?cloningOrder=42');
    expect(screen.queryByRole('button', { name: 'Leave feedback' })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Revisions' })).toBeDisabled();
    // Issue 27: the greyed-out tab says why.
    expect(screen.getByRole('tab', { name: 'Revisions' })).toHaveAccessibleDescription('Revisions open once the order is completed');
    // Shown on hover over the tab's wrapper (a disabled tab gets no pointer events), its code loaded then (ADR 0102).
    expect(screen.queryByRole('tooltip', { hidden: true })).not.toBeInTheDocument();
    fireEvent.pointerEnter(screen.getByRole('tab', { name: 'Revisions' }).parentElement as HTMLElement);
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent('Revisions open once the order is completed');
    fireEvent.pointerLeave(screen.getByRole('tab', { name: 'Revisions' }).parentElement as HTMLElement);
    await waitFor(() => expect(screen.queryByRole('tooltip', { hidden: true })).not.toBeInTheDocument());
  });

  it.each([
    [2, 'Paid'],
    [3, 'In progress'],
    [8, 'Canceled'],
  ])('offers only Clone in status %i', async (status, name) => {
    serveOrder({ status, orderStatus: { id: status, name } });
    await openOrder();
    expect(screen.getByRole('link', { name: 'Clone' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Pay/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Leave feedback' })).not.toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Revisions' })).toBeDisabled();
  });

  it('offers feedback and revisions on a completed order', async () => {
    serveOrder(COMPLETED);
    await openOrder();
    expect(screen.getByRole('button', { name: 'Leave feedback' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Revisions' })).toBeEnabled();
    expect(screen.getByRole('tab', { name: 'Revisions' })).not.toHaveAccessibleDescription();
  });

  it('shows the review instead of the button once there is one', async () => {
    serveOrder({ ...COMPLETED, feedback: { rating: 4.5, comment: 'Clear and on time' } });
    await openOrder();
    expect(screen.queryByRole('button', { name: 'Leave feedback' })).not.toBeInTheDocument();
    const feedback = screen.getByRole('region', { name: 'Your feedback' });
    expect(within(feedback).getByRole('img', { name: '4.5 out of 5 stars' })).toBeInTheDocument();
    expect(within(feedback).getByText('Clear and on time')).toBeInTheDocument();
  });

  it("describes the revisions tab with 'You have one active revision' while one is active", async () => {
    serveOrder({ ...COMPLETED, activeRevision: { id: 9 } });
    await openOrder();
    expect(screen.getByRole('tab', { name: 'Revisions' })).toHaveAccessibleDescription('You have one active revision');
  });

  it('opens the payment chooser when several systems are allowed and multipayment is on', async () => {
    server.use(
      http.get('/api/en/sites/settings', () =>
        HttpResponse.json({ ...settingsFixture, payments_rules: { '1': { default: ['paycore', 'paypal'] } } }),
      ),
    );
    serveOrder({});
    const { user } = await openOrder();
    await user.click(screen.getByRole('button', { name: 'Pay $90.00' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose a payment method' });
    const methods = within(dialog).getAllByRole('button', { name: /\$90\.00/ });
    expect(methods).toHaveLength(2);
    expect(methods[0]).toHaveAccessibleName('Pay $90.00 with Card (paycore.io)');
    expect(methods[1]).toHaveAccessibleName('Pay $90.00 with PayPal');
  });

  it.each([
    ['a failed fetch', () => server.use(http.get('/api/en/orders/42', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })))],
  ])('shows the order error state for %s, with the way back', async (_name, arrange) => {
    arrange();
    signIn();
    const { user, router } = renderApp('/orderinfo/42/details');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong while fetching order data');
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to All Orders' }));
    await waitFor(() => expect(currentUrl(router)).toBe('/dashboard'));
  });

  it('says a hidden order is hidden and unhides it there, with the existing unhide call (issue 27)', async () => {
    let hidden: 'YES' | 'no' = 'YES';
    let unhides = 0;
    server.use(
      http.get('/api/en/orders/42', () => HttpResponse.json(orderDetailFixture({ id: 42, hidden }))),
      http.put('/api/en/orders/42/unhide', () => {
        unhides += 1;
        hidden = 'no';
        return HttpResponse.json({});
      }),
    );
    signIn();
    const { user } = renderApp('/orderinfo/42/details');
    expect(await screen.findByRole('alert')).toHaveTextContent('This order is hidden');
    expect(screen.queryByText('Something went wrong while fetching order data')).not.toBeInTheDocument();
    expect(screen.queryByRole('tab')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to All Orders' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Unhide' }));
    expect(await screen.findByRole('tab', { name: /Order details/ })).toBeInTheDocument();
    expect(unhides).toBe(1);
    expect(screen.queryByText('This order is hidden')).not.toBeInTheDocument();
  });

  it("shows the messages tab with 'You have unread messages' when the chat counts some (ADR 0049)", async () => {
    server.use(
      http.get('/api/en/sites/categories/:category/orders', () =>
        HttpResponse.json({
          orders: [
            {
              ...orderDetailFixture({ id: 42 }),
              pages: 4,
              unread: 2,
              reviewBy: null,
              reviewed: false,
              activeRevision: false,
              completedAt: null,
            },
          ],
          total: 1,
        }),
      ),
      http.get('http://localhost:3000/chat/api/customers/orders/42/messages/unread', () =>
        HttpResponse.json({ total: 2, writer: 0, support: 2 }),
      ),
    );
    serveOrder({});
    signIn();
    const { user } = renderApp('/dashboard');
    await user.click(await screen.findByRole('link', { name: /Microplastics/ }));
    const tab = await screen.findByRole('tab', { name: /Messages/ });
    expect(tab).toHaveAccessibleDescription('You have unread messages');
  });
});

describe('files tab', { timeout: 20_000 }, () => {
  const files = [{ id: 5, name: 'final-essay.docx', typeName: 'docx', size: 2048, remote: true }];

  it("lists the writer's and the customer's files and hands a download link to the browser (ADR 0080)", async () => {
    serveOrder({});
    const asked: { url: string; authorization: string }[] = [];
    server.use(
      http.get('/api/en/orders/42/writers/files', () => HttpResponse.json(files)),
      http.get('/api/en/orders/files/5', ({ request }) => {
        asked.push({ url: request.url, authorization: request.headers.get('Authorization') ?? '' });
        return HttpResponse.json({ url: '/api/en/orders/files/5?ticket=abc.def' });
      }),
    );
    const createObjectURL = vi.fn(() => 'blob:essay');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const clicked: { href: string; download: string }[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    });
    const { user } = await openOrder('files');
    const writer = await screen.findByRole('region', { name: "Writer's files" });
    const row = (await within(writer).findByText('final-essay.docx')).closest('li') as HTMLElement;
    expect(row).toHaveTextContent('docx');
    expect(row).toHaveTextContent('2 kb');
    expect(within(screen.getByRole('region', { name: 'Your files' })).getByText('You have not added any files.')).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: 'Download final-essay.docx' }));
    await waitFor(() => expect(clicked).toHaveLength(1));
    // The link is asked for with the token; the bytes go to the browser's download manager, not the page.
    expect(asked).toEqual([{ url: `${window.location.origin}/api/en/orders/files/5?link=1`, authorization: 'Bearer access-1' }]);
    expect(clicked[0]).toEqual({ href: `${window.location.origin}/api/en/orders/files/5?ticket=abc.def`, download: 'final-essay.docx' });
    expect(createObjectURL).not.toHaveBeenCalled();
    click.mockRestore();
  });

  it('shows the reason when the link is refused, and hands nothing to the browser', async () => {
    serveOrder({});
    server.use(
      http.get('/api/en/orders/42/writers/files', () => HttpResponse.json(files)),
      http.get('/api/en/orders/files/5', () => HttpResponse.json({ message: 'Not found' }, { status: 404 })),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { user } = await openOrder('files');
    const writer = await screen.findByRole('region', { name: "Writer's files" });
    await user.click(await within(writer).findByRole('button', { name: 'Download final-essay.docx' }));
    expect(await screen.findByText('Not found')).toBeInTheDocument();
    expect(click).not.toHaveBeenCalled();
    click.mockRestore();
  });

  it('uploads each added file with its own progress bar, then lists it', async () => {
    serveOrder({});
    const uploaded: typeof files = [];
    server.use(http.get('/api/en/orders/42/customers/files', () => HttpResponse.json(uploaded)));
    const requests = installFakeXhr();
    const { user } = await openOrder('files');
    await screen.findByText('You have not added any files.');
    const input = screen.getByTestId('order-file-input');
    await user.upload(input, [new File(['a'.repeat(100)], 'notes.pdf', { type: 'application/pdf' })]);

    await waitFor(() => expect(requests).toHaveLength(1));
    const xhr = requests[0]!;
    expect(xhr.url).toBe('/api/en/orders/42/customers/files');
    expect(xhr.headers.Authorization).toBe('Bearer access-1');
    expect((xhr.body?.get('file') as File).name).toBe('notes.pdf');
    xhr.upload.onprogress?.({ lengthComputable: true, loaded: 40, total: 100 });
    expect(await screen.findByRole('progressbar', { name: 'Uploading notes.pdf' })).toHaveAttribute('aria-valuenow', '40');

    uploaded.push({ id: 6, name: 'notes.pdf', typeName: 'pdf', size: 100, remote: true });
    xhr.status = 200;
    xhr.responseText = JSON.stringify(uploaded[0]);
    xhr.onload?.();
    const mine = screen.getByRole('region', { name: 'Your files' });
    expect(await within(mine).findByText('notes.pdf', { selector: 'span' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument());
  });

  it('refuses a file of the wrong type before sending it, and shows a 413 from the server', async () => {
    serveOrder({});
    const requests = installFakeXhr();
    await openOrder('files');
    await screen.findByText('You have not added any files.');
    const input = screen.getByTestId('order-file-input');
    // The picker's `accept` would filter it; a drop or a picker without accept would not.
    Object.defineProperty(input, 'files', { configurable: true, value: [new File(['x'], 'virus.exe'), new File(['x'], 'big.pdf')] });
    fireEvent.change(input);
    await waitFor(() =>
      expect(screen.getByRole('list', { name: 'Uploads' })).toHaveTextContent(
        /virus\.exeInvalid file format\. Acceptable file formats: txt, zip/,
      ),
    );
    await waitFor(() => expect(requests).toHaveLength(1));
    requests[0]!.status = 413;
    requests[0]!.responseText = JSON.stringify({ message: 'Maximum file size is 100MB' });
    requests[0]!.onload?.();
    expect(await screen.findByText('Maximum file size is 100MB')).toBeInTheDocument();
  });
});

describe("ADR 0096: files dropped on the Files tab, and the customer's own upload removed", { timeout: 20_000 }, () => {
  const dropOf = (files: File[]) => ({
    dataTransfer: { files, items: files.map((file) => ({ kind: 'file', type: file.type, getAsFile: () => file })), types: ['Files'] },
  });

  it('uploads a dropped file with its progress, and refuses a dropped bad one with SPEC text', async () => {
    serveOrder({});
    const requests = installFakeXhr();
    await openOrder('files');
    await screen.findByText('You have not added any files.');
    const zone = screen.getByRole('group', { name: 'Drag and drop files here, or' });
    fireEvent.drop(zone, dropOf([new File(['%PDF'], 'dropped.pdf', { type: 'application/pdf' }), new File(['MZ'], 'tool.exe')]));
    await waitFor(() => expect(requests).toHaveLength(1));
    expect((requests[0]!.body?.get('file') as File).name).toBe('dropped.pdf');
    requests[0]!.upload.onprogress?.({ lengthComputable: true, loaded: 30, total: 100 });
    expect(await screen.findByRole('progressbar', { name: 'Uploading dropped.pdf' })).toHaveAttribute('aria-valuenow', '30');
    expect(screen.getByRole('list', { name: 'Uploads' })).toHaveTextContent(
      /tool\.exeInvalid file format\. Acceptable file formats: txt, zip/,
    );
  });

  it("removes an own file after the confirmation, and the list updates; no Remove on the writer's files", async () => {
    serveOrder({});
    let mine = [
      { id: 7, name: 'wrong-brief.pdf', typeName: 'pdf', size: 100, remote: true },
      { id: 8, name: 'right-brief.pdf', typeName: 'pdf', size: 100, remote: true },
    ];
    const deleted: string[] = [];
    server.use(
      http.get('/api/en/orders/42/customers/files', () => HttpResponse.json(mine)),
      http.get('/api/en/orders/42/writers/files', () =>
        HttpResponse.json([{ id: 5, name: 'final-essay.docx', typeName: 'docx', size: 2048, remote: true }]),
      ),
      http.delete('/api/en/orders/files/:id', ({ params }) => {
        deleted.push(String(params.id));
        mine = mine.filter((f) => String(f.id) !== params.id);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const { user } = await openOrder('files');
    const own = await screen.findByRole('region', { name: 'Your files' });
    await within(own).findByText('wrong-brief.pdf');
    const writer = screen.getByRole('region', { name: "Writer's files" });
    await within(writer).findByText('final-essay.docx');
    expect(within(writer).queryByRole('button', { name: /Remove/ })).not.toBeInTheDocument();

    await user.click(within(own).getByRole('button', { name: 'Remove wrong-brief.pdf' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this file?' });
    // Keeping it sends nothing.
    await user.click(within(dialog).getByRole('button', { name: 'Keep the file' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deleted).toEqual([]);

    await user.click(within(own).getByRole('button', { name: 'Remove wrong-brief.pdf' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Remove this file?' })).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(own).queryByText('wrong-brief.pdf')).not.toBeInTheDocument());
    expect(deleted).toEqual(['7']);
    expect(within(own).getByText('right-brief.pdf')).toBeInTheDocument();
  });

  it("shows the server's refusal in the dialog and keeps the file", async () => {
    serveOrder({});
    server.use(
      http.get('/api/en/orders/42/customers/files', () =>
        HttpResponse.json([{ id: 7, name: 'kept.pdf', typeName: 'pdf', size: 100, remote: true }]),
      ),
      http.delete('/api/en/orders/files/7', () => HttpResponse.json({ message: 'This file can no longer be removed' }, { status: 409 })),
    );
    const { user } = await openOrder('files');
    const own = await screen.findByRole('region', { name: 'Your files' });
    await user.click(await within(own).findByRole('button', { name: 'Remove kept.pdf' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove this file?' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await within(dialog).findByText('This file can no longer be removed')).toBeInTheDocument();
    expect(within(own).getByText('kept.pdf')).toBeInTheDocument();
  });

  it.each([
    [2, 'Paid'],
    [3, 'In progress'],
    [5, 'Completed'],
  ])('offers no Remove once the order is %i (%s)', async (status, name) => {
    serveOrder({ status, orderStatus: { id: status, name } });
    server.use(
      http.get('/api/en/orders/42/customers/files', () =>
        HttpResponse.json([{ id: 7, name: 'brief.pdf', typeName: 'pdf', size: 100, remote: true }]),
      ),
    );
    await openOrder('files');
    const own = await screen.findByRole('region', { name: 'Your files' });
    expect(await within(own).findByRole('button', { name: 'Download brief.pdf' })).toBeInTheDocument();
    expect(within(own).queryByRole('button', { name: 'Remove brief.pdf' })).not.toBeInTheDocument();
  });
});

describe('feedback modal', { timeout: 20_000 }, () => {
  it('takes half stars from the keyboard and a comment, then shows the review on the order', async () => {
    const order = serveOrder(COMPLETED);
    const sent: unknown[] = [];
    server.use(
      http.post('/api/en/orders/42/reviews', async ({ request }) => {
        const body = (await request.json()) as { rating: number; comment: string };
        sent.push(body);
        order.update({ feedback: body });
        return HttpResponse.json({ id: 1 });
      }),
    );
    const { user } = await openOrder();
    await user.click(screen.getByRole('button', { name: 'Leave feedback' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave feedback' });
    const group = within(dialog).getByRole('radiogroup', { name: 'Rating' });
    expect(within(group).getAllByRole('radio')).toHaveLength(10);

    await user.click(within(group).getByRole('radio', { name: '3 out of 5 stars' }));
    expect(within(group).getByRole('radio', { name: '3 out of 5 stars' })).toBeChecked();
    await user.keyboard('{ArrowLeft}');
    expect(within(group).getByRole('radio', { name: '2.5 out of 5 stars' })).toBeChecked();
    expect(within(group).getByRole('radio', { name: '2.5 out of 5 stars' })).toHaveFocus();
    await user.keyboard('{End}');
    expect(within(group).getByRole('radio', { name: '5 out of 5 stars' })).toBeChecked();
    await user.keyboard('{Home}');
    expect(within(group).getByRole('radio', { name: '0.5 out of 5 stars' })).toBeChecked();
    await user.keyboard('{End}{ArrowDown}');
    expect(within(group).getByRole('radio', { name: '4.5 out of 5 stars' })).toBeChecked();

    await user.type(within(dialog).getByLabelText('Comment'), 'Great work');
    await user.click(within(dialog).getByRole('button', { name: 'Send feedback' }));

    expect(await screen.findByText('Your review has been added.')).toBeInTheDocument();
    expect(sent).toEqual([{ rating: 4.5, comment: 'Great work' }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const feedback = await screen.findByRole('region', { name: 'Your feedback' });
    expect(within(feedback).getByRole('img', { name: '4.5 out of 5 stars' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Leave feedback' })).not.toBeInTheDocument();
  });

  it("shows the server's message as a warning", async () => {
    serveOrder(COMPLETED);
    server.use(
      http.post('/api/en/orders/42/reviews', () => HttpResponse.json({ message: 'You have already reviewed this order' }, { status: 409 })),
    );
    const { user } = await openOrder();
    await user.click(screen.getByRole('button', { name: 'Leave feedback' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave feedback' });
    await user.click(within(dialog).getByRole('button', { name: 'Send feedback' }));
    expect(within(dialog).getByText('Please choose a rating')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: '4 out of 5 stars' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send feedback' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You have already reviewed this order');
  });
});
