import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { defaultPreferences } from '@app/domain/notification';
import { createQueryClient } from '@/lib/query-client';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { NotificationPreferencesTable } from './notification-preferences';

/** Answers the change when `answer` is called: 200 with the preferences changed, or 500. */
const heldPut = () => {
  let release: (ok: boolean) => void = () => undefined;
  const answered = new Promise<boolean>((resolve) => (release = resolve));
  server.use(
    http.put('/api/en/customers/notification-preferences', async ({ request }) => {
      const change = (await request.json()) as Record<string, { email?: boolean }>;
      if (!(await answered)) return HttpResponse.json({ message: 'Something went wrong' }, { status: 500 });
      const prefs = defaultPreferences();
      for (const [type, c] of Object.entries(change)) Object.assign(prefs[type as keyof typeof prefs], c);
      return HttpResponse.json(prefs);
    }),
  );
  return { answer: (ok: boolean) => release(ok) };
};

const renderTable = async () => {
  signIn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <NotificationPreferencesTable />
    </QueryClientProvider>,
  );
  return screen.findByRole('checkbox', { name: 'Writer assigned by email' });
};

describe("/profile's notification choices (ADR 0088)", () => {
  it('shows a box as chosen in the click itself, and keeps it once saved', async () => {
    const put = heldPut();
    const box = await renderTable();
    expect(box).toBeChecked();
    fireEvent.click(box);
    // No waiting: the box a customer (or a journey) looks at right after the click shows the choice.
    expect(box).not.toBeChecked();
    put.answer(true);
    await waitFor(() => expect(screen.queryByText('That change was not saved. Please try again.')).not.toBeInTheDocument());
    expect(box).not.toBeChecked();
  });

  it('puts the box back and says so when the change is refused', async () => {
    const put = heldPut();
    const box = await renderTable();
    fireEvent.click(box);
    expect(box).not.toBeChecked();
    put.answer(false);
    expect(await screen.findByText('That change was not saved. Please try again.')).toBeInTheDocument();
    expect(box).toBeChecked();
  });
});
