import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { server } from '@/testing/msw-server';
import { orderDetailFixture, signIn } from '@/testing/fixtures';
import { renderApp } from '@/testing/render-app';
import { PRICE_CONFIRM_DEBOUNCE_MS } from '../api/pricing';
import { WIZARD_STORAGE_KEY } from '../lib/persisted-state';
import { discountHandler, priceCalcHandler, type PriceCalcCall } from '@/testing/price-calc-handler';

// The wizard's lazy steps load on first use; on a busy 2-core machine that takes a while.
vi.setConfig({ testTimeout: 20_000 });

const open = async (url: string) => {
  const view = renderApp(url);
  await screen.findByRole('heading', { level: 1, name: /New Order|Edit order/ }, { timeout: 15_000 });
  await screen.findByTestId('final-price', {}, { timeout: 15_000 });
  return view;
};
const total = () => screen.queryAllByTestId('final-price')[0]?.textContent;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the live price, confirmed by the server (ADR 0027, SPEC §7 PUT …/calcs)', () => {
  it('asks once the choices settle, ~400 ms after the last change, never per click, keyed by the body', async () => {
    const calls: PriceCalcCall[] = [];
    server.use(priceCalcHandler(calls), discountHandler());
    const { user } = await open('/order');
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toMatchObject({ idWorkType: 1, academicLevel: 1, pages: 1, idSpacing: 2, urgency: 240, discountPercent: 0 });

    // Three quick clicks: the client's figure follows each at once, the server is asked once, for 4 pages.
    const more = screen.getByRole('button', { name: 'More pages' });
    await user.click(more);
    expect(total()).toBe('$20.00');
    await user.click(more);
    await user.click(more);
    expect(total()).toBe('$40.00');
    await pause(PRICE_CONFIRM_DEBOUNCE_MS / 2);
    expect(calls).toHaveLength(1);
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]?.body).toMatchObject({ pages: 4 });

    // Text that is not priced changes nothing; a combination asked about before answers from the cache.
    await user.click(screen.getByRole('button', { name: 'Fewer pages' }));
    await user.click(screen.getByRole('button', { name: 'Fewer pages' }));
    await user.click(screen.getByRole('button', { name: 'Fewer pages' }));
    expect(total()).toBe('$10.00');
    await pause(PRICE_CONFIRM_DEBOUNCE_MS * 2);
    expect(calls).toHaveLength(2);
    expect(total()).toBe('$10.00');
  });

  it("shows the server's figure when it differs, without a flicker while waiting, and logs the difference", async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const calls: PriceCalcCall[] = [];
    // The server knows a rate the client's tables do not have yet: one dollar more than the client says.
    server.use(
      priceCalcHandler(calls, {
        adjust: (price) => ({ ...price, basicPrice: price.basicPrice + 1, finalPrice: price.finalPrice + 1 }),
        delayMs: 300,
      }),
    );
    const { user } = await open('/order?_ym_debug=1');
    await waitFor(() => expect(total()).toBe('$11.00'));
    expect(info).toHaveBeenCalledWith(
      '[order-wizard]',
      'price-mismatch',
      expect.objectContaining({ server: expect.objectContaining({ finalPrice: 1100 }) as unknown }),
    );

    // A change shows the client's figure at once and keeps it, unchanged, until the server answers.
    await user.click(screen.getByRole('button', { name: 'More pages' }));
    const seen = new Set<string | undefined>();
    const observer = new MutationObserver(() => seen.add(total()));
    observer.observe(document.body, { subtree: true, characterData: true, childList: true });
    expect(total()).toBe('$20.00');
    await waitFor(() => expect(total()).toBe('$21.00'));
    observer.disconnect();
    expect([...seen].filter((shown) => shown !== '$20.00' && shown !== '$21.00')).toEqual([]);
    expect(calls).toHaveLength(2);
    info.mockRestore();
  });

  it('cancels the request for a body that is no longer on screen', async () => {
    const calls: PriceCalcCall[] = [];
    server.use(priceCalcHandler(calls, { delayMs: (body) => (body.pages === 2 ? 5_000 : 0) }));
    const { user } = await open('/order');
    await waitFor(() => expect(calls).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: 'More pages' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]?.body).toMatchObject({ pages: 2 });
    await user.click(screen.getByRole('button', { name: 'More pages' }));
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls[2]?.body).toMatchObject({ pages: 3 });
    await waitFor(() => expect(calls[1]?.aborted()).toBe(true));
    expect(calls[2]?.aborted()).toBe(false);
    expect(total()).toBe('$30.00');
  });

  it("shows the server's message beside the price when it finds no rate (422)", async () => {
    // The server's tables have lost the 10-day rate the client still prices.
    server.use(priceCalcHandler([], { noRate: (body) => body.urgency === 240 }));
    const { user } = renderApp('/order');
    expect((await screen.findAllByText('This combination of options has no price', {}, { timeout: 15_000 })).length).toBeGreaterThan(0);
    expect(screen.queryByTestId('final-price')).not.toBeInTheDocument();
    // Another deadline has a rate on the server: the price is back.
    await user.click(screen.getByRole('radio', { name: '2 days' }));
    expect(await screen.findAllByTestId('final-price')).not.toHaveLength(0);
    expect(total()).toBe('$10.00');
  });
});

describe('editing an order re-applies its discount code (ADR 0027)', () => {
  it('sends the stored code through the discount endpoint, so the price matches what was charged', async () => {
    signIn();
    const codes: string[] = [];
    const calls: PriceCalcCall[] = [];
    server.use(discountHandler(codes), priceCalcHandler(calls));
    const { user } = await open('/order?editingOrderId=42');
    expect(screen.getByRole('heading', { level: 1, name: 'Edit order #42' })).toBeInTheDocument();
    // 4 pages at $10.00, premium writer 25 %, originality report $7.50: $57.50, less 10 % (WELCOME10).
    await waitFor(() => expect(total()).toBe('$51.75'));
    expect(codes).toEqual(['WELCOME10']);
    await waitFor(() => expect(calls.at(-1)?.body).toMatchObject({ discountPercent: 10, pages: 4 }));
    expect(screen.getByText('Discount')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /Step 3/ }));
    expect(await screen.findByLabelText('Discount code')).toHaveValue('WELCOME10');
    expect(screen.getByText('Your discount has been successfully applied')).toBeInTheDocument();
  });

  it('shows the discount message and no discount when the code is no longer valid', async () => {
    signIn();
    const codes: string[] = [];
    server.use(
      discountHandler(codes),
      priceCalcHandler(),
      http.get('/api/en/orders/42', () => HttpResponse.json(orderDetailFixture({ discount: { code: 'EXPIRED5', amount: 2.5 } }))),
    );
    const { user } = await open('/order?editingOrderId=42');
    await waitFor(() => expect(codes).toEqual(['EXPIRED5']));
    await waitFor(() => expect(total()).toBe('$57.50'));
    await user.click(screen.getByRole('button', { name: /Step 3/ }));
    expect(await screen.findByText('Invalid discount code')).toBeInTheDocument();
  });

  it('does not carry a discount stored for another form into an order without a code', async () => {
    signIn();
    localStorage.setItem(
      WIZARD_STORAGE_KEY,
      JSON.stringify({ discount: { code: 'WELCOME10', percent: 10, amount: 0, isTopWriterDiscount: false } }),
    );
    const codes: string[] = [];
    server.use(
      discountHandler(codes),
      priceCalcHandler(),
      http.get('/api/en/orders/42', () => HttpResponse.json(orderDetailFixture({ discount: null }))),
    );
    await open('/order?editingOrderId=42');
    await waitFor(() => expect(total()).toBe('$57.50'));
    await pause(PRICE_CONFIRM_DEBOUNCE_MS * 2);
    expect(total()).toBe('$57.50');
    expect(codes).toEqual([]);
  });
});
