import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { server } from '@/testing/msw-server';
import { signIn } from '@/testing/fixtures';
import { generatedDiscountFixture, loyaltySummaryFixture, referralFixture } from '@/testing/loyalty-fixtures';
import { renderApp } from '@/testing/render-app';
import { expectNoAxeViolations } from '@/testing/axe';

const serveSummary = (summary = loyaltySummaryFixture()) =>
  server.use(http.get('/api/en/orders/discounts/loyalty_discounts', () => HttpResponse.json(summary)));

describe('/loyalty points (SPEC §2, §3 "Loyalty", ADR 0050)', { timeout: 20_000 }, () => {
  it('shows the balance, the rules with the current one marked, points to the next and the earning rule', async () => {
    signIn();
    renderApp('/loyalty');
    expect(await screen.findByTestId('points-balance')).toHaveTextContent('150 points');
    expect(screen.getByTestId('points-to-next')).toHaveTextContent('150 points to the next level (5% off).');
    const table = screen.getByRole('table', { name: /Loyalty rules/ });
    const current = within(table)
      .getAllByRole('row')
      .filter((r) => r.getAttribute('aria-current') === 'true');
    expect(current).toHaveLength(1);
    expect(current[0]).toHaveTextContent('100–299');
    expect(current[0]).toHaveTextContent('Your level');
    expect(screen.getByText(/You earn 1 point for every whole US dollar/)).toBeInTheDocument();
  });

  it("refuses to generate without a rule above 0 %, with SPEC's text, and asks the server nothing", async () => {
    const posted = vi.fn();
    serveSummary(
      loyaltySummaryFixture({
        points: 40,
        currentRule: { from: 0, to: 99, percent: 0 },
        nextRule: { from: 100, to: 299, percent: 3 },
        pointsToNextRule: 60,
        generation: null,
      }),
    );
    server.use(
      http.post('/api/en/orders/discounts/loyalty_discounts/code', () => {
        posted();
        return HttpResponse.json({ discount: null });
      }),
    );
    signIn();
    const { user } = renderApp('/loyalty');
    await user.click(await screen.findByRole('button', { name: 'Generate discount code' }));
    expect(await screen.findByText("You don't have enough points to generate discount.")).toBeInTheDocument();
    expect(posted).not.toHaveBeenCalled();
  });

  it('shows what generating costs before confirming, then the code with copy-to-clipboard', async () => {
    let summary = loyaltySummaryFixture();
    server.use(
      http.get('/api/en/orders/discounts/loyalty_discounts', () => HttpResponse.json(summary)),
      http.post('/api/en/orders/discounts/loyalty_discounts/code', () => {
        const discount = generatedDiscountFixture();
        summary = loyaltySummaryFixture({ points: 50, code: discount, codes: [discount], generation: null });
        return HttpResponse.json({ discount });
      }),
    );
    signIn();
    const { user } = renderApp('/loyalty');
    await user.click(await screen.findByRole('button', { name: 'Generate discount code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate a discount code?' });
    expect(within(dialog).getByTestId('generation-cost')).toHaveTextContent('It uses 100 of your 150 points; 50 remain.');
    await user.click(within(dialog).getByRole('button', { name: 'Generate code' }));
    const card = await screen.findByTestId('loyalty-code');
    expect(card).toHaveTextContent('LOYAL-ABCDEFGHJK');
    expect(within(card).getByRole('link', { name: 'Use it on a new order' })).toHaveAttribute(
      'href',
      '/order?discountCode=LOYAL-ABCDEFGHJK',
    );
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(card).getByRole('button', { name: 'Copy the code LOYAL-ABCDEFGHJK' }));
    expect(writeText).toHaveBeenCalledWith('LOYAL-ABCDEFGHJK');
    expect(await screen.findByText('Copied to clipboard!')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('points-balance')).toHaveTextContent('50 points'));
  });

  it('lists generated codes with their state on the discount sub-tab', async () => {
    serveSummary(
      loyaltySummaryFixture({
        codes: [
          generatedDiscountFixture({ code: 'REF-USEDCODE22', source: 'referral', state: 'used', idOrder: 42 }),
          generatedDiscountFixture({ code: 'REF-EXPIRED333', source: 'referral', state: 'expired', expiresAt: '2030-01-01T00:00:00.000Z' }),
        ],
      }),
    );
    signIn();
    renderApp('/loyalty?tab=discount');
    const items = await screen.findAllByTestId('discount-code-item');
    expect(items[0]).toHaveTextContent('Used');
    expect(items[0]).toHaveTextContent('used on order #42');
    expect(items[1]).toHaveTextContent('Expired');
  });
});

describe('/loyalty drawn whole (ADR 0098: no section arrives above another)', { timeout: 20_000 }, () => {
  it('shows one loading line until the points and the referral answers are in, then the page with the tabs below the points', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.use(
      http.get('/api/en/orders/discounts/loyalty_discounts', async () => {
        await answered;
        return HttpResponse.json(loyaltySummaryFixture());
      }),
    );
    signIn();
    renderApp('/loyalty');
    // A whole-app render on a shared machine: the first one of a file takes seconds.
    expect(await screen.findByText('Loading your bonuses…', undefined, { timeout: 15_000 })).toBeInTheDocument();
    // The referral answers are in, the points are not: nothing of the page is drawn below the heading yet.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('tab', { name: 'Referral' })).not.toBeInTheDocument();
    expect(screen.queryByText('Invite friends')).not.toBeInTheDocument();
    answer();
    expect(await screen.findByTestId('points-balance', undefined, { timeout: 15_000 })).toHaveTextContent('150 points');
    expect(screen.getByRole('tab', { name: 'Referral' })).toBeInTheDocument();
    expect(screen.getByText('Invite friends')).toBeInTheDocument();
    expect(screen.queryByText('Loading your bonuses…')).not.toBeInTheDocument();
  });
});

describe('/loyalty referral sub-tab (SPEC §4, ADR 0051)', { timeout: 20_000 }, () => {
  it('filters by status 0–6 and generates a discount for a ready referral; a failure shows SPEC §8 text', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/en/customers/referrals/referral_customers', ({ request }) => {
        const idStatus = new URL(request.url).searchParams.get('idStatus') ?? '';
        asked.push(idStatus);
        const all = [referralFixture(1, 3), referralFixture(2, 1)];
        const list = idStatus === '0' ? all : all.filter((r) => String(r.status.id) === idStatus);
        return HttpResponse.json({ referrals: list, total: list.length });
      }),
      http.post('/api/en/customers/referrals/:id/discount', () =>
        HttpResponse.json({ message: 'Problem occurred while generating your discount' }, { status: 422 }),
      ),
    );
    signIn();
    const { user } = renderApp('/loyalty?tab=referral');
    expect(await screen.findByLabelText('Your referral link')).toHaveValue('http://localhost:3000/order?ref_id=7');
    expect(await screen.findAllByTestId('referral-item')).toHaveLength(2);
    const options = within(screen.getByLabelText('Status'))
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(options).toEqual([
      'All',
      'New referral',
      'In progress',
      'Ready to use',
      'Discount generated',
      'Discount used',
      'Discount expired',
    ]);
    await user.selectOptions(screen.getByLabelText('Status'), '3');
    await waitFor(() => expect(screen.getAllByTestId('referral-item')).toHaveLength(1));
    expect(asked).toContain('3');
    await user.click(screen.getByRole('button', { name: 'Generate discount' }));
    expect(await screen.findByText('Problem occurred while generating your discount')).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Status'), '6');
    expect(await screen.findByText('No referrals with the status “Discount expired”.')).toBeInTheDocument();
  });
});

describe('the shell (SPEC §2 "Startup": ready referral counts)', { timeout: 20_000 }, () => {
  it('shows the count of ready referrals beside My Bonuses, and nothing when there are none', async () => {
    server.use(
      http.get('/api/en/customers/referral', () => HttpResponse.json({ url: 'http://localhost:3000/order?ref_id=7', readyReferrals: 2 })),
    );
    signIn();
    renderApp('/dashboard');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    await waitFor(() => expect(within(nav).getByRole('link', { name: /My Bonuses/ })).toHaveTextContent('My Bonuses2'));
  });
});

describe('/loyalty next level and sharing (issue 27, ADR 0097)', { timeout: 20_000 }, () => {
  it('says in the generate dialog how many points more give the next level, percentages without a space', async () => {
    serveSummary(
      loyaltySummaryFixture({
        points: 983,
        currentRule: { from: 600, to: 999, percent: 7 },
        nextRule: { from: 1000, to: null, percent: 10 },
        pointsToNextRule: 17,
        generation: { percent: 7, pointsSpent: 600, pointsLeft: 383 },
      }),
    );
    signIn();
    const { user } = renderApp('/loyalty');
    expect(await screen.findByTestId('points-to-next')).toHaveTextContent('17 points to the next level (10% off).');
    const table = screen.getByRole('table', { name: /Loyalty rules/ });
    expect(within(table).getByRole('row', { name: /600–999/ })).toHaveTextContent('7%');
    expect(table).not.toHaveTextContent(/\d %/);
    expect(screen.queryByTestId('next-level-hint')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Generate discount code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate a discount code?' });
    expect(within(dialog).getByText(/You get a/)).toHaveTextContent('You get a 7% code');
    expect(within(dialog).getByTestId('next-level-hint')).toHaveTextContent(
      '17 points more gives 10%: you may wait for it and generate then.',
    );
    // The dialog alone: Radix's focus guards around it trip axe's aria-hidden-focus outside a real browser.
    await expectNoAxeViolations(dialog);
  });

  it('says nothing about the next level when it is far, and nothing on the last level', async () => {
    serveSummary();
    signIn();
    const { user, unmount } = renderApp('/loyalty');
    await user.click(await screen.findByRole('button', { name: 'Generate discount code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate a discount code?' });
    expect(within(dialog).getByTestId('generation-cost')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('next-level-hint')).not.toBeInTheDocument();
    unmount();
    serveSummary(
      loyaltySummaryFixture({
        points: 1200,
        currentRule: { from: 1000, to: null, percent: 10 },
        nextRule: null,
        pointsToNextRule: null,
        generation: { percent: 10, pointsSpent: 1000, pointsLeft: 200 },
      }),
    );
    renderApp('/loyalty');
    expect(await screen.findByTestId('points-to-next')).toHaveTextContent('You are on the highest level: 10% off.');
  });

  it('below the first discount, the refusal says how close the first level is', async () => {
    serveSummary(
      loyaltySummaryFixture({
        points: 90,
        currentRule: { from: 0, to: 99, percent: 0 },
        nextRule: { from: 100, to: 299, percent: 3 },
        pointsToNextRule: 10,
        generation: null,
      }),
    );
    signIn();
    const { user } = renderApp('/loyalty');
    await user.click(await screen.findByRole('button', { name: 'Generate discount code' }));
    expect(await screen.findByText("You don't have enough points to generate discount.")).toBeInTheDocument();
    expect(screen.getByTestId('next-level-hint')).toHaveTextContent('10 points more gives 3%.');
  });

  it('without the Web Share API: copy (with a confirmation) and email, WhatsApp and X links carrying the link', async () => {
    Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
    signIn();
    const { user } = renderApp('/loyalty?tab=referral');
    // After user-event's setup, which installs its own clipboard.
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const url = 'http://localhost:3000/order?ref_id=7';
    const share = await screen.findByTestId('referral-share');
    expect(within(share).queryByRole('button', { name: 'Share your referral link' })).not.toBeInTheDocument();
    const mail = within(share).getByRole('link', { name: 'Share your referral link by email' });
    expect(mail.getAttribute('href')).toMatch(/^mailto:\?subject=/);
    expect(decodeURIComponent(mail.getAttribute('href') ?? '')).toContain(url);
    const whatsapp = within(share).getByRole('link', { name: 'Share your referral link on WhatsApp' });
    expect(whatsapp.getAttribute('href')).toMatch(/^https:\/\/wa\.me\/\?text=/);
    expect(decodeURIComponent(whatsapp.getAttribute('href') ?? '')).toContain(url);
    expect(whatsapp).toHaveAttribute('rel', 'noopener noreferrer');
    const x = within(share).getByRole('link', { name: 'Share your referral link on X' });
    expect(new URL(x.getAttribute('href') ?? '').searchParams.get('url')).toBe(url);
    const copy = within(share).getByRole('button', { name: 'Copy your referral link' });
    await user.click(copy);
    expect(writeText).toHaveBeenCalledWith(url);
    expect(await screen.findByText('Copied to clipboard!')).toBeInTheDocument();
    expect(copy).toHaveTextContent('Copied');
    await expectNoAxeViolations();
  });

  it('with the Web Share API (a phone): one Share button hands the link to the system sheet; closing the sheet says nothing', async () => {
    const shareFn = vi.fn().mockRejectedValueOnce(new DOMException('closed', 'AbortError')).mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'share', { value: shareFn, configurable: true });
    Object.defineProperty(navigator, 'canShare', { value: () => true, configurable: true });
    try {
      signIn();
      const { user } = renderApp('/loyalty?tab=referral');
      const share = await screen.findByTestId('referral-share');
      const button = within(share).getByRole('button', { name: 'Share your referral link' });
      expect(within(share).queryByRole('link', { name: /on WhatsApp/ })).not.toBeInTheDocument();
      await user.click(button);
      await user.click(button);
      expect(shareFn).toHaveBeenCalledTimes(2);
      expect(shareFn).toHaveBeenLastCalledWith(expect.objectContaining({ url: 'http://localhost:3000/order?ref_id=7' }));
      expect(screen.queryByText(/could not share/)).not.toBeInTheDocument();
      await expectNoAxeViolations();
    } finally {
      Object.defineProperty(navigator, 'share', { value: undefined, configurable: true });
      Object.defineProperty(navigator, 'canShare', { value: undefined, configurable: true });
    }
  });
});
