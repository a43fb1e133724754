import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { server } from '@/testing/msw-server';
import { orderDetailFixture, signIn } from '@/testing/fixtures';
import { currentUrl, renderApp } from '@/testing/render-app';

// The wizard's lazy steps load on first use; on a busy 2-core machine that takes a while.
vi.setConfig({ testTimeout: 30_000 });

const OLD_TITLE = 'Microplastics in Freshwater Ecosystems';
const NEW_TITLE = 'Coral Reefs Under Heat Stress';

/**
 * One owner per server resource (ADR 0056): the order page and the wizard read the same order detail.
 * The order page was seen a moment ago (its answer is still fresh for 30 s); the customer edits the
 * order in the wizard and comes back: the page must show the order as it is now, not as it was.
 */
describe('an order edited in the wizard', () => {
  it('shows the edited order on its page at once, not the answer cached before the edit', async () => {
    signIn();
    let order = orderDetailFixture({ id: 42, title: OLD_TITLE });
    const updates: unknown[] = [];
    server.use(
      http.get('/api/en/orders/42', () => HttpResponse.json(order)),
      http.put('/api/en/sites/categories/:c/orders/42', async ({ request }) => {
        const body = (await request.json()) as { topic?: string };
        updates.push(body);
        order = { ...order, title: body.topic ?? order.title };
        return HttpResponse.json({ id: 42, uid: order.uid });
      }),
    );
    const { router, user } = renderApp('/orderinfo/42/details');
    expect(await screen.findByText(OLD_TITLE, { selector: 'p' }, { timeout: 15_000 })).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'Edit' }));
    await screen.findByRole('heading', { level: 1, name: 'Edit order #42' }, { timeout: 15_000 });
    await screen.findByRole('form', { name: 'Step 1: Paper' }, { timeout: 15_000 });
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const title = await screen.findByLabelText('Title', {}, { timeout: 15_000 });
    await user.clear(title);
    await user.type(title, NEW_TITLE);
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Update order' }, { timeout: 15_000 }));

    await waitFor(() => expect(currentUrl(router)).toBe('/orderinfo/42/details'), { timeout: 15_000 });
    expect(updates).toHaveLength(1);
    expect(await screen.findByText(NEW_TITLE, { selector: 'p' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByText(OLD_TITLE, { selector: 'p' })).not.toBeInTheDocument();
  });
});
