import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { Session } from '@app/domain/customer';
import { server } from '@/testing/msw-server';
import { sessionsFixture, signIn } from '@/testing/fixtures';
import { expectNoAxeViolations } from '@/testing/axe';
import { renderApp } from '@/testing/render-app';

const phone = (id: string, lastSeenAt: string, ip = '198.51.100.7'): Session => ({
  id,
  device: 'Safari on iOS',
  ip,
  signedInAt: '2026-11-19T18:00:00.000Z',
  lastSeenAt,
  current: false,
});

/** A stateful sessions API: DELETE of one id removes it; an id already gone answers 404 (CONTRACT). */
const serveSessions = (initial: Session[]) => {
  let sessions = [...initial];
  const deleted: string[] = [];
  server.use(
    http.get('/api/en/customers/customer/sessions', () => HttpResponse.json({ sessions })),
    http.delete('/api/en/customers/customer/sessions/:id', ({ params }) => {
      const id = String(params.id);
      deleted.push(id);
      if (!sessions.some((s) => s.id === id)) return HttpResponse.json({ message: 'Not found' }, { status: 404 });
      sessions = sessions.filter((s) => s.id !== id);
      return HttpResponse.json({ message: 'The session has been signed out.' });
    }),
  );
  return { deleted, remaining: () => sessions };
};

describe('the devices list merges repeats of one device (issue 27, ADR 0097)', { timeout: 20_000 }, () => {
  it('shows one row with "n sessions" and the latest last seen; its sign out ends every session of it', async () => {
    const api = serveSessions([
      ...sessionsFixture,
      phone('family-phone-2', '2026-11-24T07:15:00.000Z', '198.51.100.9'),
      phone('family-phone-3', '2026-11-21T07:15:00.000Z'),
    ]);
    signIn();
    const { user } = renderApp('/profile');
    const list = await screen.findByRole('list', { name: 'Signed-in devices' }, { timeout: 15_000 });
    await waitFor(() => expect(within(list).getAllByTestId('device-row')).toHaveLength(2));
    const [mine, phones] = within(list).getAllByTestId('device-row');
    expect(mine).toHaveTextContent('Chrome on Windows');
    expect(mine).toHaveTextContent('This device');
    expect(within(mine as HTMLElement).queryByRole('button')).not.toBeInTheDocument();
    expect(phones).toHaveTextContent('Safari on iOS');
    expect(within(phones as HTMLElement).getByTestId('device-sessions')).toHaveTextContent('3 sessions');
    expect(phones).toHaveTextContent('198.51.100.9, 198.51.100.7');
    await expectNoAxeViolations();

    const button = within(phones as HTMLElement).getByRole('button', { name: /^Sign out Safari on iOS, 3 sessions, last seen/ });
    await user.click(button);
    await waitFor(() => expect(within(list).getAllByTestId('device-row')).toHaveLength(1));
    expect([...api.deleted].sort()).toEqual(['family-phone', 'family-phone-2', 'family-phone-3']);
    expect(api.remaining().map((s) => s.id)).toEqual(['family-this']);
    expect(await screen.findByText('3 sessions have been signed out.')).toBeInTheDocument();
  });

  it("on this device's row signs out only the other sessions of it, and a session already gone is no error", async () => {
    const api = serveSessions([
      sessionsFixture[0] as Session,
      { ...(sessionsFixture[0] as Session), id: 'family-this-old', current: false, lastSeenAt: '2026-11-01T09:00:00.000Z' },
    ]);
    signIn();
    const { user } = renderApp('/profile');
    const list = await screen.findByRole('list', { name: 'Signed-in devices' }, { timeout: 15_000 });
    const row = await within(list).findByTestId('device-row');
    expect(row).toHaveTextContent('2 sessions');
    expect(row).toHaveTextContent('This device');
    // Gone already (signed out in another tab): the row's sign out still succeeds.
    server.use(
      http.delete('/api/en/customers/customer/sessions/family-this-old', () => HttpResponse.json({ message: 'x' }, { status: 404 })),
    );
    await user.click(within(row).getByRole('button', { name: 'Sign out the others: 1 session of Chrome on Windows' }));
    expect(await screen.findByText('The session has been signed out.')).toBeInTheDocument();
    expect(api.deleted).not.toContain('family-this');
  });

  it('says so when the server refuses', async () => {
    serveSessions([...sessionsFixture]);
    server.use(
      http.delete('/api/en/customers/customer/sessions/:id', () => HttpResponse.json({ message: 'Something went wrong' }, { status: 400 })),
    );
    signIn();
    const { user } = renderApp('/profile');
    const list = await screen.findByRole('list', { name: 'Signed-in devices' }, { timeout: 15_000 });
    await waitFor(() => expect(within(list).getAllByTestId('device-row')).toHaveLength(2));
    await user.click(within(list).getByRole('button', { name: /^Sign out Safari on iOS, last seen/ }));
    expect(await screen.findByText('Something went wrong')).toBeInTheDocument();
    expect(within(list).getAllByTestId('device-row')).toHaveLength(2);
  });
});
