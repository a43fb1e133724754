import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { server } from '@/testing/msw-server';
import { renderApp } from '@/testing/render-app';
import { discountHandler, priceCalcHandler } from '@/testing/price-calc-handler';

/** ADR 0042, 0043: the wizard's focus, announcements, message timing, descriptions and tooltip. */
vi.setConfig({ testTimeout: 20_000 });
beforeEach(() => {
  server.use(priceCalcHandler(), discountHandler());
});

const open = async (url: string) => {
  const view = renderApp(url);
  await screen.findByRole('heading', { level: 1, name: 'New Order' }, { timeout: 15_000 });
  await screen.findByTestId('final-price', {}, { timeout: 15_000 });
  return view;
};
const liveRegion = () => screen.getByTestId('live-region');

/** Every id an aria-describedby names is an element on the page. */
const describedByIdsExist = () => {
  const missing = [...document.querySelectorAll('[aria-describedby]')].flatMap((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter((id) => id !== '' && !document.getElementById(id))
      .map((id) => `${el.tagName} ${el.getAttribute('name') ?? ''} → #${id}`),
  );
  expect(missing).toEqual([]);
};

describe('a step change', () => {
  it('puts the focus on the new step heading and announces "Step 2 of 3: Instructions"', async () => {
    const { user } = await open('/order?subject=1');
    expect(liveRegion()).toHaveTextContent('');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const heading = await screen.findByRole('heading', { level: 2, name: 'Step 2 of 3: Instructions' });
    await waitFor(() => expect(heading).toHaveFocus());
    await waitFor(() => expect(liveRegion()).toHaveTextContent('Step 2 of 3: Instructions'));

    await user.click(screen.getByRole('button', { name: 'Back' }));
    const first = await screen.findByRole('heading', { level: 2, name: 'Step 1 of 3: Paper' });
    await waitFor(() => expect(first).toHaveFocus());
    await waitFor(() => expect(liveRegion()).toHaveTextContent('Step 1 of 3: Paper'));
  });

  it('leaves the focus alone when the wizard opens on a step', async () => {
    await open('/order?subject=1&step=2');
    await screen.findByRole('heading', { level: 2, name: 'Step 2 of 3: Instructions' });
    expect(document.body).toHaveFocus();
  });
});

describe('messages', () => {
  it('stay away while tabbing through the empty fields of step 2, and come with Continue', async () => {
    const { user } = await open('/order?subject=1&step=2');
    const title = await screen.findByLabelText('Title');
    const details = screen.getByLabelText('Paper details');
    title.focus();
    await user.tab();
    expect(details).toHaveFocus();
    await user.tab();
    expect(screen.queryByText('Fill out either "Paper Details" or "File(s)" field')).not.toBeInTheDocument();
    expect(screen.queryByText('We will leave the "Title" choice to writer')).not.toBeInTheDocument();
    expect(details).not.toHaveAttribute('aria-describedby');
    describedByIdsExist();

    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(details).toHaveAccessibleDescription('Fill out either "Paper Details" or "File(s)" field');
    describedByIdsExist();
  });

  it('come on leaving a field that was changed', async () => {
    const { user } = await open('/order?subject=1&step=2');
    const details = await screen.findByLabelText('Paper details');
    await user.type(details, 'Short');
    await user.tab();
    expect(details).toHaveAccessibleDescription('Min: 10 characters');
    describedByIdsExist();
  });

  it('stay away while tabbing through the empty account fields of step 3, and come with Create order', async () => {
    const { user } = await open('/order?subject=1&description=Ten%20characters%20at%20least&step=3');
    const name = await screen.findByLabelText('Name');
    name.focus();
    await user.tab();
    expect(screen.getByLabelText('Email')).toHaveFocus();
    await user.tab();
    await user.tab();
    await user.tab();
    expect(screen.queryByText('Invalid email address.')).not.toBeInTheDocument();
    expect(name).not.toHaveAttribute('aria-invalid');
    expect(name).not.toHaveAttribute('aria-describedby');
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('aria-describedby');
    describedByIdsExist();

    await user.click(screen.getByRole('button', { name: 'Create order' }));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(/./);
    expect(name).toHaveFocus();
    describedByIdsExist();
  });
});

describe('the info tooltip', () => {
  it('opens from its button and closes on Escape', async () => {
    const { user } = await open('/order');
    const about = await screen.findByRole('button', { name: 'About Editing & Proofreading' });
    await user.click(about);
    expect(about).toHaveAttribute('aria-expanded', 'true');
    expect(await screen.findByRole('tooltip')).toBeVisible();
    await user.keyboard('{Escape}');
    expect(about).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('tooltip')).not.toBeInTheDocument();
    expect(about).toHaveFocus();
  });
});
