import type { Page } from '@playwright/test';
import { DEMO, expect, expectNoAxeViolations, shoot, test, wizardStep, WIZARD_WAIT } from './support';

// ADR 0064: a visitor's /order and /login come drawn by the server; the browser hydrates them. Nothing on
// them works before the app runs (inert), nothing typed is lost, and a signed-in customer never gets a
// visitor's page.

/** Warnings of a page drawn again by the browser (apps/web/src/app/app.tsx onRecoverableError). */
const redrawNotes = (page: Page) => {
  const notes: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('drawn again')) notes.push(message.text());
  });
  return notes;
};

const root = (page: Page) => page.locator('#root');

/** Holds the app's entry script back until `release` is called: what shows meanwhile is what the server sent. */
const holdAppCode = async (page: Page): Promise<() => void> => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
};

test('the wizard’s first step is on screen before the app’s code has arrived, and works once it has', async ({ page }) => {
  const notes = redrawNotes(page);
  const release = await holdAppCode(page);
  await page.goto('/order', { waitUntil: 'commit' });
  await expect(wizardStep(page, 'Paper')).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Step 1 of 3: Paper' })).toBeVisible();
  await expect(root(page)).toHaveAttribute('inert', '');
  await shoot(page, 'server-drawn-order-before-code');

  release();
  await expect(root(page)).not.toHaveAttribute('inert');
  // Hydrated, not drawn again: the step works.
  await page.getByRole('radio', { name: 'Resume' }).check();
  await expect(page.getByRole('radio', { name: 'Resume' })).toBeChecked();
  await expect(page.getByLabel('Resume service')).toBeVisible(WIZARD_WAIT);
  expect(notes).toEqual([]);
  await expectNoAxeViolations(page, 'hydrated wizard');
});

test('the sign-in form takes nothing typed before the app runs, and signs in after', async ({ page }) => {
  const notes = redrawNotes(page);
  const release = await holdAppCode(page);
  await page.goto('/login', { waitUntil: 'commit' });
  const email = page.locator('input[name="email"]');
  await expect(email).toBeVisible();
  // Inert: a click does not focus it, so no key can reach it.
  await email.click({ force: true });
  await page.keyboard.type('lost@example.com');
  await expect(email).toHaveValue('');
  release();
  await expect(root(page)).not.toHaveAttribute('inert');

  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();
  expect(notes).toEqual([]);
});

test('a signed-in customer gets the app’s own page, never a visitor’s; after logging out, a visitor’s again', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();

  // The browser says it holds a session (no token in it), and the server draws nothing for it.
  const hint = (await page.context().cookies()).find((c) => c.name === 'signed_in');
  expect(hint?.value).toBe('1');
  const signedInPage = await (await page.request.get('/order')).text();
  expect(signedInPage).toContain('<div id="root"></div>');

  await page.goto('/order');
  await expect(wizardStep(page, 'Paper')).toBeVisible(WIZARD_WAIT);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).click();
  // SPEC §2: logging out of the wizard leaves it at /order?full.
  await expect(page).toHaveURL(/\/order\?full$/);
  expect((await page.context().cookies()).find((c) => c.name === 'signed_in')).toBeUndefined();
  expect(await (await page.request.get('/order')).text()).toContain('data-server-drawn');
});

test('a visitor’s wizard draft comes back over the server’s page on a reload', async ({ page }) => {
  await page.goto('/order');
  await page.getByRole('radio', { name: 'Thesis' }).check();
  await expect(page.getByRole('radio', { name: 'Thesis' })).toBeChecked();
  await page.reload();
  await expect(root(page)).not.toHaveAttribute('inert');
  await expect(page.getByRole('radio', { name: 'Thesis' })).toBeChecked();
  await expect(page.getByRole('radio', { name: 'Essay' })).not.toBeChecked();
});
