import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Revision, RevisionList } from '@app/domain/revision';
import { server } from '@/testing/msw-server';
import { orderDetailFixture, signIn } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { installFakeXhr } from '@/testing/fake-xhr';

const DAY = 86_400_000;
const revision = (id: number, change: Partial<Revision> = {}): Revision => ({
  id,
  idOrder: 42,
  revisionStatus: { id: 1, name: 'Requested' },
  deadline: new Date(Date.now() + 12 * 3_600_000).toISOString(),
  dateCreated: new Date().toISOString(),
  categories: [{ id: 4, name: 'Grammar and style' }],
  description: `Fix revision ${id}`,
  revisionLevel: { id: 1, name: 'Minor changes' },
  statusHistory: [{ status: 1, date: new Date().toISOString() }],
  ...change,
});
const OPEN = { until: new Date(Date.now() + 10 * DAY).toISOString(), open: true, daysLeft: 10 };

/** A completed order 42 whose revision list answers `list` (changeable as the story goes). */
const serve = (list: Partial<RevisionList> = {}) => {
  const state: { list: RevisionList } = { list: { revisions: [], total: 0, window: OPEN, activeRevision: null, ...list } };
  server.use(
    http.get('/api/en/orders/42', () =>
      HttpResponse.json(orderDetailFixture({ id: 42, status: 5, orderStatus: { id: 5, name: 'Completed' } })),
    ),
    http.get('/api/en/orders/revisions', ({ request }) => {
      expect(new URL(request.url).searchParams.get('idOrder')).toBe('42');
      return HttpResponse.json(state.list);
    }),
  );
  return state;
};

const openTab = async () => {
  signIn();
  const app = renderApp('/orderinfo/42/revisions');
  await screen.findByTestId('revisions-tab', {}, { timeout: 10_000 });
  return app;
};
const wizard = () => screen.findByRole('dialog', { name: 'Request a revision' }, { timeout: 5_000 });

afterEach(() => {
  window.localStorage.clear();
  vi.unstubAllGlobals();
});

describe('Revisions tab', { timeout: 30_000 }, () => {
  it("lists revisions with their status badge, dates and categories; a row opens the info modal with both sides' files", async () => {
    serve({
      revisions: [
        revision(7, { revisionStatus: { id: 12, name: 'Verifying' } }),
        revision(6, { revisionStatus: { id: 5, name: 'Completed' } }),
      ],
      total: 2,
      activeRevision: { id: 7 },
    });
    server.use(
      http.get('/api/en/orders/revisions/7/writers/files', () =>
        HttpResponse.json([{ id: 90, name: 'revised.docx', typeName: 'docx', size: 2048, remote: true }]),
      ),
      http.get('/api/en/orders/revisions/7/customers/files', () => HttpResponse.json([])),
    );
    const { user } = await openTab();
    const rows = screen.getAllByTestId('revision-row');
    expect(rows.map((r) => r.querySelector('[data-revision-status]')?.textContent)).toEqual(['Verifying', 'Completed']);
    expect(rows[0]).toHaveTextContent('Grammar and style');
    expect(rows[0]).toHaveTextContent(/Due .+ · 1[12] h \d+ min left/);
    expect(await screen.findByTestId('revision-window')).toHaveTextContent(/^Free revisions until .+ \(10 days left\)$/);
    expect(screen.getByRole('button', { name: 'Request a revision' })).toBeDisabled();
    expect(within(screen.getByTestId('revisions-tab')).getByText('You have one active revision')).toBeInTheDocument();
    await user.click(rows[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Revision #7' }, { timeout: 5_000 });
    const writer = within(dialog).getByRole('region', { name: "Writer's files" });
    expect(await within(writer).findByText('revised.docx')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Add due date to calendar' })).toBeInTheDocument();
  });

  it('opens the revision the completion mail links to, even when it is not on the first page', async () => {
    serve({ revisions: [revision(14)], total: 11 });
    server.use(
      http.get('/api/en/orders/revisions/3', () => HttpResponse.json(revision(3, { revisionStatus: { id: 5, name: 'Completed' } }))),
    );
    signIn();
    renderApp('/orderinfo/42/revisions?revision=3');
    const dialog = await screen.findByRole('dialog', { name: 'Revision #3' }, { timeout: 10_000 });
    expect(within(dialog).getByText('Completed')).toBeInTheDocument();
  });

  it('refuses to open the wizard once the revision period has ended', async () => {
    serve({ window: { until: new Date(Date.now() - DAY).toISOString(), open: false, daysLeft: 0 } });
    await openTab();
    expect(screen.getByRole('button', { name: 'Request a revision' })).toBeDisabled();
    expect(screen.getByText('The free revision period of this order has ended')).toBeInTheDocument();
    expect(await screen.findByTestId('revision-window')).toHaveTextContent(/^Free revisions ended on /);
  });

  it("walks the three steps with their gates, sends the request once and reloads the list with SPEC's notice", async () => {
    const state = serve();
    let posted: unknown = null;
    let release: () => void = () => undefined;
    server.use(
      http.post('/api/en/orders/42/revisions', async ({ request }) => {
        posted = await request.json();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        state.list = { ...state.list, revisions: [revision(8)], total: 1, activeRevision: { id: 8 } };
        return HttpResponse.json({ id: 8 });
      }),
    );
    const { user } = await openTab();
    await user.click(screen.getByRole('button', { name: 'Request a revision' }));
    const dialog = await wizard();
    const next = () => within(dialog).getByRole('button', { name: 'Next' });
    expect(within(dialog).getByRole('heading', { name: 'Revision Policy' })).toBeInTheDocument();
    expect(next()).toBeDisabled();
    await user.click(within(dialog).getByLabelText('I have read and accept the Revision Policy'));
    await user.click(next());
    expect(within(dialog).getByRole('heading', { name: 'Nature of revision' })).toBeInTheDocument();
    expect(next()).toBeDisabled();
    await user.click(await within(dialog).findByLabelText('Content and arguments'));
    expect(next()).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Description'), 'Strengthen the argument');
    await user.click(next());
    expect(within(dialog).getByRole('heading', { name: 'Time-frame' })).toBeInTheDocument();
    const finish = within(dialog).getByRole('button', { name: 'Finish' });
    expect(finish).toBeDisabled();
    expect(within(dialog).getByText(/Extensive changes · 24 hours/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: /Moderate changes · 16 hours/ }));
    expect(finish).toBeEnabled();
    await user.click(finish);
    await waitFor(() => expect(posted).toEqual({ category: [2], describeProblem: 'Strengthen the argument', revisionLevel: 2 }));
    expect(within(dialog).getByRole('button', { name: 'Finish' })).toBeDisabled();
    release();
    expect(await screen.findByText('Revision has been successfully created')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Request a revision' })).not.toBeInTheDocument());
    expect(await screen.findAllByTestId('revision-row')).toHaveLength(1);
    expect(window.localStorage.getItem('revisionDraft:42') ?? '').not.toContain('Strengthen');
  });

  it('keeps what was typed when the server refuses, and across a reload', async () => {
    serve();
    server.use(
      http.post('/api/en/orders/42/revisions', () => HttpResponse.json({ message: 'You have one active revision' }, { status: 409 })),
    );
    const first = await openTab();
    await first.user.click(screen.getByRole('button', { name: 'Request a revision' }));
    let dialog = await wizard();
    await first.user.click(within(dialog).getByLabelText('I have read and accept the Revision Policy'));
    await first.user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await first.user.click(await within(dialog).findByLabelText('Other'));
    await first.user.type(within(dialog).getByLabelText('Description'), 'Please keep me');
    await first.user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await first.user.click(within(dialog).getByRole('radio', { name: /Minor changes/ }));
    await first.user.click(within(dialog).getByRole('button', { name: 'Finish' }));
    expect(await within(dialog).findByText('You have one active revision')).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: /Minor changes/ })).toBeChecked();
    first.unmount();

    const second = await openTab();
    await second.user.click(screen.getByRole('button', { name: 'Request a revision' }));
    dialog = await wizard();
    expect(within(dialog).getByRole('heading', { name: 'Time-frame' })).toBeInTheDocument();
    await second.user.click(within(dialog).getByRole('button', { name: 'Back' }));
    expect(within(dialog).getByLabelText('Description')).toHaveValue('Please keep me');
    expect(within(dialog).getByLabelText('Other')).toBeChecked();
  });

  it('uploads the files after the revision is created, each with its progress; a refused file is said in a notice, the revision stays', async () => {
    const state = serve();
    server.use(
      http.post('/api/en/orders/42/revisions', () => {
        state.list = { ...state.list, revisions: [revision(8)], total: 1, activeRevision: { id: 8 } };
        return HttpResponse.json({ id: 8 });
      }),
    );
    const uploads = installFakeXhr();
    const { user } = await openTab();
    await user.click(screen.getByRole('button', { name: 'Request a revision' }));
    const dialog = await wizard();
    await user.click(within(dialog).getByLabelText('I have read and accept the Revision Policy'));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await user.click(await within(dialog).findByLabelText('Other'));
    await user.type(within(dialog).getByLabelText('Description'), 'With two files');
    fireEvent.change(within(dialog).getByTestId('revision-file-input'), {
      target: { files: [new File(['a'], 'notes.pdf'), new File(['b'], 'huge.pdf')] },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await user.click(within(dialog).getByRole('radio', { name: /Minor changes/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Finish' }));

    await waitFor(() => expect(uploads).toHaveLength(1));
    const first = uploads[0]!;
    expect(first.url).toBe('/api/en/orders/revisions/8/customers/files');
    expect(first.body?.get('id_revision')).toBe('8');
    expect((first.body?.get('file') as File).name).toBe('notes.pdf');
    first.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 2 });
    expect(await within(dialog).findByRole('progressbar', { name: 'Uploading notes.pdf' })).toHaveAttribute('aria-valuenow', '50');
    first.answer(201, { id: 31, name: 'notes.pdf', typeName: 'pdf', size: 1, remote: true });

    await waitFor(() => expect(uploads).toHaveLength(2));
    uploads[1]!.answer(413, { message: 'Maximum file size is 100MB' });
    expect(await screen.findByText('Revision has been successfully created')).toBeInTheDocument();
    expect(await screen.findByText('huge.pdf: Maximum file size is 100MB')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Request a revision' })).not.toBeInTheDocument());
    expect(await screen.findAllByTestId('revision-row')).toHaveLength(1);
  });

  it("refuses a file of a wrong type with SPEC's text before anything is sent", async () => {
    serve();
    const { user } = await openTab();
    await user.click(screen.getByRole('button', { name: 'Request a revision' }));
    const dialog = await wizard();
    await user.click(within(dialog).getByLabelText('I have read and accept the Revision Policy'));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await user.click(await within(dialog).findByLabelText('Other'));
    await user.type(within(dialog).getByLabelText('Description'), 'With a file');
    // The picker's `accept` hides such a file; a drop or "All files" still hands it over.
    fireEvent.change(within(dialog).getByTestId('revision-file-input'), { target: { files: [new File(['MZ'], 'tool.exe')] } });
    expect(within(dialog).getByText(/^Invalid file format\. Acceptable file formats: txt, zip/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Remove tool.exe' }));
    expect(within(dialog).getByRole('button', { name: 'Next' })).toBeEnabled();
  });
});
