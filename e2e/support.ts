import { randomBytes, randomInt } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import type { AxeResults, RunOptions } from 'axe-core';

/**
 * Shared helpers of the journeys. Message texts are written out literally (not imported from
 * @app/domain): the journeys check the running app against SPEC's wording on their own.
 */

/**
 * Every test is its own client. Sign-in and friends allow 10 requests a minute per IP (CONTRACT
 * "Errors and access"), and the e2e server trusts X-Forwarded-For (playwright.config.ts), so each
 * test presents a random address, as clients behind a load balancer would.
 */
export const test = base.extend({
  // axe-core is injected into the page (expectNoAxeViolations); the product's CSP refuses such a
  // script, so the journeys' browser contexts bypass it. Tests only: the server keeps its CSP.
  bypassCSP: true,
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use) => {
    const ip = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
    await use({ ...extraHTTPHeaders, 'X-Forwarded-For': ip });
  },
});
export { expect };

export const DEMO = { email: 'demo@example.com', password: 'demo12345' } as const;

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}
export interface Account extends Tokens {
  email: string;
  password: string;
}

export const JWT_PATTERN = /^[\w-]+\.[\w-]+\.[\w-]+$/;
const hashDevice = () => randomBytes(16).toString('hex');

/** A unique address, so journeys never depend on what an earlier run left behind. */
export const freshEmail = (label: string) => `e2e-${label}-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`;

/** A new customer through the API (SPEC §7 sign_up); answers the tokens it got. */
export const signUp = async (request: APIRequestContext, label: string): Promise<Account> => {
  const email = freshEmail(label);
  const password = `pw-${randomBytes(6).toString('hex')}`;
  const response = await request.post('/api/en/auth/jwt/sign_up', {
    data: {
      email,
      password,
      firstName: 'Erin',
      lastName: 'Tester',
      phone: '15551234567',
      isEnabledNightCall: false,
      hashDevice: hashDevice(),
      // ADR 0085: the checkout's terms box, ticked (the current versions are recorded).
      terms: true,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  const tokens = (await response.json()) as Tokens;
  return { email, password, ...tokens };
};

/** CONTRACT "Demo data": the seeded staff accounts the journeys sign in with. */
export const SUPPORT = { email: 'support@example.com', password: 'support12345' } as const;
export const WRITER = { email: 'writer@example.com', password: 'writer12345' } as const;
export const ADMIN = { email: 'admin@example.com', password: 'admin12345' } as const;
/** The wait for what the server does in the background (a socket, a job, a mail) on a loaded machine. */
export const SLOW = { timeout: 25_000 } as const;
/** The Authorization header of an account's access token, for API calls beside the page. */
export const bearer = (tokens: Pick<Tokens, 'accessToken'>) => ({ Authorization: `Bearer ${tokens.accessToken}` });

/**
 * ADR 0088: the notifications job run now, as if `minutes` later (the few minutes that fold a burst of one
 * order's events into one mail have passed): the order mails reach the outbox.
 */
export const runNotificationsJob = async (request: APIRequestContext, minutes = 10): Promise<void> => {
  const response = await request.post('/api/dev/notifications/run', {
    data: { at: new Date(Date.now() + minutes * 60_000).toISOString() },
  });
  expect(response.status(), await response.text()).toBe(200);
};

export const signInApi = async (request: APIRequestContext, email: string, password: string): Promise<Tokens> => {
  const response = await request.post('/api/en/auth/jwt/sign_in', { data: { email, password, hashDevice: hashDevice() } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Tokens;
};

/**
 * Puts tokens where the web app keeps them (UI contract "Storage") and opens `target`. localStorage
 * is per origin, so a cheap same-origin document (/healthz) is opened first.
 */
export const openSignedIn = async (page: Page, tokens: Tokens, target: string): Promise<void> => {
  await page.goto('/healthz');
  await page.evaluate(({ accessToken, refreshToken }) => {
    localStorage.setItem('accessToken', accessToken);
    localStorage.setItem('refreshToken', refreshToken);
  }, tokens);
  await page.goto(target);
};

export const storedTokens = (page: Page) =>
  page.evaluate(() => ({ accessToken: localStorage.getItem('accessToken'), refreshToken: localStorage.getItem('refreshToken') }));

interface OutboxMail {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: string;
}

/** Every http(s) link in a mail, text body first, HTML entities undone. */
export const linksIn = (mail: OutboxMail): string[] => {
  const raw = `${mail.text}\n${mail.html}`.match(/https?:\/\/[^\s"'<>)]+/g) ?? [];
  return [...new Set(raw.map((link) => link.replace(/&amp;/g, '&')))];
};

/**
 * Waits for a mail to `to` in the dev outbox (CONTRACT "Identity") holding a link that contains
 * `marker` (e.g. 'magicLink='), and answers that link as a path on the e2e server. Other mail to the
 * same address (the sign-up welcome) is passed over.
 */
export const linkFromMail = async (request: APIRequestContext, to: string, marker: string): Promise<string> => {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
        if (!response.ok()) return `outbox answered ${response.status()}`;
        const { messages } = (await response.json()) as { messages: OutboxMail[] };
        link = messages.flatMap(linksIn).find((l) => l.includes(marker));
        return link ? 'arrived' : `${messages.length} mail(s), none with ${marker}`;
      },
      { message: `a mail to ${to} with a ${marker} link`, timeout: 10_000 },
    )
    .toBe('arrived');
  if (!link) throw new Error(`no ${marker} link mailed to ${to}`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/** Opens the side navigation when it sits behind "Menu" (below 992 px, SPEC §9). */
export const openNavigation = async (page: Page): Promise<void> => {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) {
    if ((await menu.getAttribute('aria-expanded')) !== 'true') await menu.click();
  }
};

const SHOTS_DIR = path.join('test-results', 'shots');
const PHONE = { width: 390, height: 844 };

/**
 * Review screenshots: at 1280 and 390 px wide in the desktop project (the viewport is narrowed for
 * the second one and restored), at 390 px in the phone project.
 */
export const shoot = async (page: Page, name: string): Promise<void> => {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const viewport = page.viewportSize();
  if (viewport && viewport.width <= PHONE.width) {
    await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-phone-390.png`), fullPage: true });
    return;
  }
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-390.png`), fullPage: true });
  if (viewport) await page.setViewportSize(viewport);
};

/** The order body of the wizard's simplest essay (SPEC §7 POST …/orders), titled `topic`. */
export const essayOrderBody = (topic: string) => ({
  idWorkType: 1,
  academicLevel: 1,
  paperFormat: 1,
  paperType: 1,
  subject: 1,
  pages: 1,
  sources: 0,
  idSpacing: 2,
  topic,
  paperDetails: '',
  urgency: 240,
  premiumWriter: 1,
  originalityReport: 1,
  extraQualityCheck: 1,
  onePageSummary: 1,
});

/** Places an order through the API for the customer holding `accessToken`; answers its id and uid. */
export const placeOrder = async (request: APIRequestContext, accessToken: string, topic: string): Promise<{ id: number; uid: string }> => {
  const response = await request.post('/api/en/sites/categories/1/orders', {
    headers: { Authorization: `Bearer ${accessToken}` },
    data: essayOrderBody(topic),
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { id: number; uid: string };
};

/* ---- The new-order wizard at /order (SPEC §4) ---- */

/** The first lazy chunks of /order are slow to arrive on a busy machine. */
export const WIZARD_WAIT = { timeout: 25_000 } as const;

export type WizardStepName = 'Paper' | 'Instructions' | 'Checkout';
const STEP_NUMBER: Record<WizardStepName, number> = { Paper: 1, Instructions: 2, Checkout: 3 };

/** The wizard's form, named after its open step ('Step 2: Instructions'). */
export const wizardStep = (page: Page, name: WizardStepName) => page.getByRole('form', { name: `Step ${STEP_NUMBER[name]}: ${name}` });

/** Opens the wizard at `target` and waits for `step` with its price computed. */
/**
 * Opens the wizard and waits until it can be used: a page the server drew is on screen before the app's
 * code is even asked for, and inert until the app has hydrated it (ADR 0064, 0065). Clicks and fills wait
 * for that by themselves; a focus() or a key press would not.
 */
export const openWizard = async (page: Page, target = '/order', step: WizardStepName = 'Paper'): Promise<void> => {
  await page.goto(target);
  await expect(wizardStep(page, step)).toBeVisible(WIZARD_WAIT);
  await expect(page.locator('#root')).not.toHaveAttribute('inert', WIZARD_WAIT);
};

/** Presses Continue and waits for the next step to be on screen. */
export const continueTo = async (page: Page, step: WizardStepName): Promise<void> => {
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(wizardStep(page, step)).toBeVisible(WIZARD_WAIT);
};

/**
 * The total the wizard shows (e.g. '$41.40'): the price column on a desktop, the bottom bar's
 * expanded details below 992 px (SPEC §9).
 */
export const wizardTotal = async (page: Page): Promise<string> => {
  const aside = page.getByRole('complementary', { name: 'Price' });
  // Chosen by the width, not by what is on screen this instant: while the signed-in app takes over the
  // server-drawn wizard the column is briefly gone, and the narrow branch then waited for a toggle that
  // never comes at 1280 px (the admin journey's timeouts in CI).
  if ((page.viewportSize()?.width ?? 0) < 992) {
    const toggle = page.getByRole('button', { name: 'Total', exact: true });
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const total = page.locator('#price-details').getByTestId('final-price');
    await expect(total).toHaveText(/^\$\d/, WIZARD_WAIT);
    return (await total.textContent()) ?? '';
  }
  const total = aside.getByTestId('final-price');
  await expect(total).toHaveText(/^\$\d/, WIZARD_WAIT);
  return (await total.textContent()) ?? '';
};

/** Step 1 with a subject (the one field it needs, SPEC §4) and optionally more pages; ends on step 2. */
export const completePaperStep = async (page: Page, options: { subject?: string; pages?: number } = {}): Promise<void> => {
  const subject = page.getByLabel('Subject');
  await subject.selectOption({ label: options.subject ?? 'English' });
  if (options.pages !== undefined) {
    await page.getByLabel('Pages', { exact: true }).fill(String(options.pages));
    await page.getByLabel('Pages', { exact: true }).blur();
  }
  // A choice made in the first moments is kept: the page stays inert until all of it is the app's
  // (apps/web/src/app/app.tsx); these journeys used to choose again when it was lost.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(wizardStep(page, 'Instructions')).toBeVisible(WIZARD_WAIT);
};

/** Step 2 with a title and paper details; ends on step 3. */
export const completeInstructionsStep = async (
  page: Page,
  title: string,
  details = 'Five sources, APA style, with a short conclusion.',
): Promise<void> => {
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Paper details').fill(details);
  await continueTo(page, 'Checkout');
};

/** The order page's total (SPEC §2 /orderinfo/{id}/details, "Price" section). */
export const orderPageTotal = (page: Page) =>
  page
    .getByRole('region', { name: 'Price', exact: true })
    .locator('dt', { hasText: /^Total$/ })
    .locator('xpath=following-sibling::dd[1]');

/** Places an order through the API with fields of `essayOrderBody` replaced by `patch`. */
export const placeOrderWith = async (
  request: APIRequestContext,
  accessToken: string,
  patch: Partial<ReturnType<typeof essayOrderBody>> & { discountCode?: string },
): Promise<{ id: number; uid: string }> => {
  const response = await request.post('/api/en/sites/categories/1/orders', {
    headers: { Authorization: `Bearer ${accessToken}` },
    data: { ...essayOrderBody('An order placed through the API'), ...patch },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { id: number; uid: string };
};

/**
 * A new order's page opens the payment method chooser at once (the express checkout path, SPEC §4,
 * ADR 0023). Journeys about the order itself close it and carry on.
 */
export const closePaymentChooser = async (page: Page): Promise<void> => {
  const chooser = page.getByRole('dialog', { name: 'Choose a payment method' });
  await expect(chooser).toBeVisible({ timeout: 25_000 });
  await page.keyboard.press('Escape');
  await expect(chooser).toBeHidden();
};

/* ---- Accessibility (ADR 0042) ---- */

const AXE_SCRIPT = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeWindow {
  axe?: { run: (context: Document, options: RunOptions) => Promise<AxeResults> };
}

/**
 * What axe-core finds on the page as it is now, one line per rule with the elements it found; `rules`
 * limits it to those rules.
 */
const axeViolations = (page: Page, rules?: string[]): Promise<string[]> =>
  page.evaluate(async (only) => {
    const { axe } = window as unknown as AxeWindow;
    if (!axe) throw new Error('axe-core did not load');
    const options: RunOptions = { resultTypes: ['violations'] };
    if (only) options.runOnly = { type: 'rule', values: only };
    const results = await axe.run(document, options);
    return results.violations.map(
      (v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  }, rules);

/** ADR 0094: what the theme changes is colour; the dark pass runs axe's colour rules only (half the time of all). */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * ADR 0094: the page in the other theme, as the customer's choice puts it (<html data-theme>), without
 * transitions (a colour half-way through one is neither theme); `restore` puts back what was there.
 */
const switchTheme = (page: Page, theme: 'light' | 'dark') =>
  page.evaluate((to) => {
    const html = document.documentElement;
    const before = html.getAttribute('data-theme');
    if (!document.getElementById('e2e-theme-switch')) {
      const still = document.createElement('style');
      still.id = 'e2e-theme-switch';
      still.textContent = '*, *::before, *::after { transition: none !important; }';
      document.head.append(still);
    }
    html.setAttribute('data-theme', to);
    return before;
  }, theme);

const restoreTheme = (page: Page, before: string | null) =>
  page.evaluate((value) => {
    const html = document.documentElement;
    if (value === null) html.removeAttribute('data-theme');
    else html.setAttribute('data-theme', value);
    // Removed a frame later: the restored colours are in place without a transition.
    requestAnimationFrame(() => document.getElementById('e2e-theme-switch')?.remove());
  }, before);

/**
 * Runs axe-core (every rule it has, WCAG 2.2 A/AA and best practices) on the page as it is now in the
 * light theme, and its colour rules in the dark one (ADR 0094), and fails on any violation, listing each rule with the
 * elements it found.
 */
export const expectNoAxeViolations = async (page: Page, state = ''): Promise<void> => {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE_SCRIPT });
  const where = `axe-core on ${new URL(page.url()).pathname}${state ? ` (${state})` : ''}`;
  const before = await switchTheme(page, 'light');
  const light = await axeViolations(page);
  await switchTheme(page, 'dark');
  const dark = await axeViolations(page, COLOUR_RULES);
  await restoreTheme(page, before);
  expect(light, `${where}, light theme`).toEqual([]);
  expect(dark, `${where}, dark theme`).toEqual([]);
};

/** Presses Tab until `target` has the focus (at most `limit` times); fails if it never gets there. */
export const tabTo = async (page: Page, target: ReturnType<Page['locator']>, { limit = 60, shift = false } = {}): Promise<void> => {
  for (let i = 0; i < limit; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab');
  }
  await expect(target).toBeFocused();
};
