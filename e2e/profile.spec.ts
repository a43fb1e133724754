import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  type Account,
  bearer,
  expect,
  expectNoAxeViolations,
  freshEmail,
  linkFromMail,
  openSignedIn,
  placeOrder,
  shoot,
  signUp,
  test,
  type Tokens,
} from './support';

/** ADR 0052, 0053 "Profile and privacy": settings, password, signed-in devices, the privacy modal, the report, deletion. Desktop and phone. */
test.describe.configure({ mode: 'serial' });
test.setTimeout(90_000);
const SLOW = { timeout: 20_000 };
const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const notice = (page: Page, text: string) => page.getByRole('region', { name: 'Notifications' }).getByText(text);
const profileOf = async (request: APIRequestContext, tokens: Tokens) => {
  const response = await request.get('/api/en/customers/customer', { headers: bearer(tokens) });
  return { status: response.status(), body: response.ok() ? ((await response.json()) as Record<string, unknown>) : null };
};
const openPrivacy = async (page: Page, tab: string) => {
  await page.getByRole('button', { name: 'Privacy settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Privacy' });
  await expect(dialog).toBeVisible();
  // Every tab in view, on a phone too: none hidden behind a sideways scroll.
  expect(await dialog.getByRole('tablist', { name: 'Privacy' }).evaluate((list) => list.scrollWidth <= list.clientWidth)).toBe(true);
  await dialog.getByRole('tab', { name: tab }).click();
  return dialog;
};

let customer: Account;

test('edits the personal information: the phone rule, the address, the notice', async ({ page, request }) => {
  customer = await signUp(request, 'profile');
  await placeOrder(request, customer.accessToken, 'An essay for the personal-data report');
  await openSignedIn(page, customer, '/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible(SLOW);
  await expect(page.getByRole('heading', { name: 'Please confirm your email' })).toBeVisible();
  await expect(page.getByText('Email status: not confirmed')).toBeVisible();

  // The checkout's phone input (issue 27): letters never get in, a pasted international number picks its country.
  const phone = page.getByLabel('Phone');
  await phone.fill('555-CALL');
  await expect(phone).not.toHaveValue(/[A-Z]/);
  await phone.fill('+353 86 123 4567');
  await expect(page.getByRole('button', { name: 'Country: Ireland +353' })).toBeVisible();
  await shoot(page, 'profile-phone');
  await expectNoAxeViolations(page, 'phone input');

  await page.getByLabel('Country', { exact: true }).fill('Ireland');
  await page.getByLabel('City').fill('Cork');
  await page.getByLabel('ZIP / postal code').fill('T12 XY34');
  await page.getByLabel('Street address').fill('1 Grand Parade');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(notice(page, 'Your personal information has been successfully updated.')).toBeVisible();
  expect((await profileOf(request, customer)).body).toMatchObject({
    phone: '353861234567',
    country: 'Ireland',
    city: 'Cork',
    zip: 'T12 XY34',
    address: '1 Grand Parade',
  });

  // SPEC §4: the Messenger opt-in saves on its checkbox event.
  await page.getByLabel('Send order updates to me on Facebook Messenger').check();
  await expect.poll(async () => (await profileOf(request, customer)).body?.enabledFacebookMessenger).toBe(true);
  await page.reload();
  await expect(page.getByLabel('City')).toHaveValue('Cork', SLOW);
  await shoot(page, 'profile-settings');
  await expectNoAxeViolations(page, 'settings saved');
});

test('changes the password: a wrong current one is refused, then the other sessions end and this one stays', async ({ page, request }) => {
  const elsewhere = (await (
    await request.post('/api/en/auth/jwt/sign_in', { data: { email: customer.email, password: customer.password } })
  ).json()) as Tokens;
  await openSignedIn(page, customer, '/profile');
  await page.getByLabel('Current password', { exact: true }).fill('not-my-password');
  await page.getByLabel('New password', { exact: true }).fill('a-new-password-1');
  await page.getByLabel('Repeat new password').fill('a-new-password-1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('The current password is not correct')).toBeVisible(SLOW);
  await expect(notice(page, 'Something went wrong')).toBeVisible();
  expect((await profileOf(request, elsewhere)).status).toBe(200);
  await expectNoAxeViolations(page, 'wrong current password');

  await page.getByLabel('Current password', { exact: true }).fill(customer.password);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(notice(page, 'Your password has been changed. Your other sessions were signed out.')).toBeVisible(SLOW);
  expect((await profileOf(request, elsewhere)).status).toBe(401);
  const refreshed = await request.put('/api/en/auth/jwt/refresh', { headers: { Authorization: `Bearer ${elsewhere.refreshToken}` } });
  expect(refreshed.status()).toBe(401);
  const oldPassword = await request.post('/api/en/auth/jwt/sign_in', { data: { email: customer.email, password: customer.password } });
  expect(oldPassword.status()).toBe(400);
  customer.password = 'a-new-password-1';
  // This page's session stays.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible(SLOW);
  const { accessToken, refreshToken } = await page.evaluate(() => ({
    accessToken: localStorage.getItem('accessToken') ?? '',
    refreshToken: localStorage.getItem('refreshToken') ?? '',
  }));
  customer.accessToken = accessToken;
  customer.refreshToken = refreshToken;
});

test('ends another signed-in device from the profile (two browsers)', async ({ page, browser, request }) => {
  const other = await browser.newContext({ bypassCSP: true, userAgent: IPHONE_UA, viewport: { width: 390, height: 844 } });
  try {
    const otherPage = await other.newPage();
    const signIn = await other.request.post('/api/en/auth/jwt/sign_in', {
      data: { email: customer.email, password: customer.password },
      headers: { 'User-Agent': IPHONE_UA },
    });
    expect(signIn.status()).toBe(200);
    const otherTokens = (await signIn.json()) as Tokens;
    await openSignedIn(otherPage, otherTokens, '/profile');
    await expect(otherPage.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible(SLOW);
    // ADR 0097: a second session of the same phone (another sign-in there) is the same device: one row.
    const again = await other.request.post('/api/en/auth/jwt/sign_in', {
      data: { email: customer.email, password: customer.password },
      headers: { 'User-Agent': IPHONE_UA },
    });
    expect(again.status()).toBe(200);
    const againTokens = (await again.json()) as Tokens;

    await openSignedIn(page, customer, '/profile');
    const devices = page.getByRole('list', { name: 'Signed-in devices' });
    await expect(devices.getByRole('listitem')).toHaveCount(2, SLOW);
    await expect(devices.getByRole('listitem').filter({ hasText: 'This device' })).toHaveCount(1);
    const phoneRow = devices.getByRole('listitem').filter({ hasText: 'Safari on iOS' });
    await expect(phoneRow).toBeVisible();
    await expect(phoneRow).toContainText('2 sessions');
    await shoot(page, 'profile-devices');
    await expectNoAxeViolations(page, 'devices listed');

    await phoneRow.getByRole('button', { name: /^Sign out Safari on iOS, 2 sessions/ }).click();
    await expect(notice(page, '2 sessions have been signed out.')).toBeVisible(SLOW);
    await expect(devices.getByRole('listitem')).toHaveCount(1);
    // The other browser's tokens stop at once: its next call fails, the refresh fails, it is signed out.
    expect((await profileOf(request, otherTokens)).status).toBe(401);
    expect((await profileOf(request, againTokens)).status).toBe(401);
    await otherPage.reload();
    await expect(otherPage).toHaveURL(/\/login/, SLOW);
  } finally {
    await other.close();
  }
});

test('the privacy modal saves a consent, and the personal-data report downloads with it', async ({ page, request }) => {
  await openSignedIn(page, customer, '/profile');
  const dialog = await openPrivacy(page, 'Consent preferences');
  await expectNoAxeViolations(page, 'privacy modal, consent preferences');
  await shoot(page, 'profile-privacy-consent');
  const location = dialog.getByLabel('Location');
  await expect(location).not.toBeChecked();
  await location.check();
  await dialog.getByRole('button', { name: 'Save preferences' }).click();
  await expect(notice(page, 'Your preferences have been saved.')).toBeVisible(SLOW);
  expect((await profileOf(request, customer)).body).toMatchObject({ enabledLocationUsage: true });
  // ADR 0097: the consent history the modal mentions, with the date and old → new.
  const history = dialog.getByRole('list', { name: 'Consent history' });
  await expect(history.getByRole('listitem')).toHaveCount(1, SLOW);
  await expect(history.getByRole('listitem')).toContainText(/Location\s*Off\s*→?\s*to\s*On/);
  await expect(history.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}T/);
  await shoot(page, 'profile-privacy-consent-history');
  await expectNoAxeViolations(page, 'privacy modal, consent history');

  await dialog.getByRole('tab', { name: 'Personal data' }).click();
  await expectNoAxeViolations(page, 'privacy modal, personal data');
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Download my data' }).click()]);
  const me = (await profileOf(request, customer)).body as { id: number };
  expect(download.suggestedFilename()).toBe(`personal-data-${me.id}.json`);
  const report = JSON.parse(await readFile(await download.path(), 'utf8')) as Record<string, unknown[]> & { profile: { email: string } };
  expect(report.profile.email).toBe(customer.email);
  expect(report.orders).toEqual([expect.objectContaining({ title: 'An essay for the personal-data report' })]);
  expect(report.consentHistory).toEqual([expect.objectContaining({ consent: 'location_usages', granted: true, previous: false })]);
  for (const section of ['files', 'transactions', 'messages', 'referrals', 'pointsLedger'])
    expect(Array.isArray(report[section])).toBe(true);
  // Another customer's report: 404.
  const stranger = await signUp(request, 'profile-stranger');
  expect((await request.get(`/api/en/customers/customer/gdpr?id=${me.id}`, { headers: bearer(stranger) })).status()).toBe(404);
});

test('deletion is refused until the email is confirmed, asks for the password, then done: /logout after 3 s and no way back in', async ({
  page,
  request,
}) => {
  await openSignedIn(page, customer, '/profile');
  let dialog = await openPrivacy(page, 'Settings');
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  // ADR 0070: the confirmation asks for the password, and the field has the focus.
  const password = dialog.getByLabel('Your password');
  await expect(password).toBeFocused();
  await shoot(page, 'profile-delete-confirm');
  await expectNoAxeViolations(page, 'delete confirmation');
  await password.fill(customer.password);
  await dialog.getByRole('button', { name: 'Yes, delete my account' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Email is not confirmed', SLOW);
  expect((await profileOf(request, customer)).status).toBe(200);
  await expectNoAxeViolations(page, 'deletion refused');
  await page.keyboard.press('Escape');

  // The confirmation link, opened in this signed-in browser, keeps the session (ADR 0038).
  const confirm = await linkFromMail(request, customer.email, 'confirmEmail=');
  await page.goto(confirm);
  await expect(notice(page, 'Your email has been confirmed.')).toBeVisible(SLOW);
  await expect(page.getByText('Email status: confirmed')).toBeVisible();

  dialog = await openPrivacy(page, 'Settings');
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  // No password: said on the field, nothing sent. A wrong one: said on the field, focused, still signed in.
  await dialog.getByRole('button', { name: 'Yes, delete my account' }).click();
  await expect(dialog.getByText('Enter your password to delete your account')).toBeVisible();
  await dialog.getByLabel('Your password').fill('not-my-password');
  await dialog.getByRole('button', { name: 'Yes, delete my account' }).click();
  await expect(dialog.getByText('The password is not correct')).toBeVisible(SLOW);
  await expect(dialog.getByLabel('Your password')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByLabel('Your password')).toBeFocused();
  await shoot(page, 'profile-delete-wrong-password');
  await expectNoAxeViolations(page, 'deletion: wrong password');
  expect((await profileOf(request, customer)).status).toBe(200);

  await dialog.getByLabel('Your password').fill(customer.password);
  await dialog.getByRole('button', { name: 'Yes, delete my account' }).click();
  await expect(notice(page, 'Your account has been successfully deleted.')).toBeVisible(SLOW);
  const deletedAt = Date.now();
  await shoot(page, 'profile-deleted');
  await expectNoAxeViolations(page, 'account deleted');
  await expect(page).toHaveURL(/\/logout$/, { timeout: 8_000 });
  expect(Date.now() - deletedAt).toBeGreaterThanOrEqual(2_000);
  await expect(page.getByText('You have been signed out')).toBeVisible();
  await expectNoAxeViolations(page, 'logout page');

  expect((await profileOf(request, customer)).status).toBe(401);
  const refreshed = await request.put('/api/en/auth/jwt/refresh', { headers: { Authorization: `Bearer ${customer.refreshToken}` } });
  expect(refreshed.status()).toBe(401);
  const signIn = await request.post('/api/en/auth/jwt/sign_in', { data: { email: customer.email, password: customer.password } });
  expect(signIn.status()).toBe(400);
});

test('an account without a password confirms its deletion through the mailed link (ADR 0070)', async ({ page, request }) => {
  const email = freshEmail('profile-nopass');
  const signedUp = await request.post('/api/en/auth/jwt/sign_up', {
    data: { email, firstName: 'Noa', lastName: 'Link', phone: '15551234567', isEnabledNightCall: false, terms: true },
  });
  expect(signedUp.status()).toBe(200);
  const tokens = (await signedUp.json()) as Tokens;
  await openSignedIn(page, tokens, '/profile');
  await page.goto(await linkFromMail(request, email, 'confirmEmail='));
  await expect(notice(page, 'Your email has been confirmed.')).toBeVisible(SLOW);

  const dialog = await openPrivacy(page, 'Settings');
  await dialog.getByRole('button', { name: 'Delete account' }).click();
  await expect(dialog.getByLabel('Your password')).toHaveCount(0);
  await expect(dialog.getByText(/we will email you a link/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Email me the link' }).click();
  await expect(dialog.getByText(/We sent you an email with a link to confirm the deletion/)).toBeVisible(SLOW);
  await shoot(page, 'profile-delete-link-mailed');
  await expectNoAxeViolations(page, 'deletion link mailed');
  expect((await profileOf(request, tokens)).status).toBe(200);
  await page.keyboard.press('Escape');

  // Another customer's session cannot use the link.
  const link = await linkFromMail(request, email, 'deleteAccount=');
  const token = new URLSearchParams(link.split('?')[1]).get('deleteAccount');
  const stranger = await signUp(request, 'profile-nopass-stranger');
  const stolen = await request.put('/api/en/customers/customer/deactivate/confirm', { headers: bearer(stranger), data: { token } });
  expect(stolen.status()).toBe(400);
  expect((await profileOf(request, tokens)).status).toBe(200);

  await page.goto(link);
  await expect(notice(page, 'Your account has been successfully deleted.')).toBeVisible(SLOW);
  await expect(page).toHaveURL(/\/logout$/, { timeout: 8_000 });
  expect((await profileOf(request, tokens)).status).toBe(401);
  expect((await profileOf(request, stranger)).status).toBe(200);
});

test('changes the email: the link goes to the new address, the old one stays until it is opened and is told', async ({ page, request }) => {
  const account = await signUp(request, 'profile-email');
  const next = freshEmail('profile-email-new');
  await openSignedIn(page, account, '/profile');
  await page.getByRole('button', { name: 'Change email' }).click(SLOW);
  const form = page.getByRole('form', { name: 'Change your email' });
  await expect(form.getByLabel('New email')).toBeFocused();
  await form.getByLabel('New email').fill(next);
  await form.getByLabel('Your password').fill('not-my-password');
  await form.getByRole('button', { name: 'Send the link' }).click();
  await expect(form.getByText('The password is not correct')).toBeVisible(SLOW);
  await form.getByLabel('Your password').fill(account.password);
  await form.getByRole('button', { name: 'Send the link' }).click();
  await expect(page.getByTestId('email-change-sent')).toContainText(`We sent a link to ${next}`, SLOW);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(account.email);
  expect((await profileOf(request, account)).body).toMatchObject({ email: account.email });
  await shoot(page, 'profile-email-change-sent');
  await expectNoAxeViolations(page, 'email change sent');
  // The old address is told.
  const subjectsTo = async (to: string) =>
    (
      (await (await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`)).json()) as { messages: { subject: string }[] }
    ).messages.map((m) => m.subject);
  await expect.poll(() => subjectsTo(account.email)).toContain('A change of your email was asked for');

  await page.goto(await linkFromMail(request, next, 'changeEmail='));
  await expect(notice(page, `Your email has been changed to ${next}.`)).toBeVisible(SLOW);
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(next);
  await shoot(page, 'profile-email-changed');
  await expectNoAxeViolations(page, 'email changed');
  await expect.poll(() => subjectsTo(account.email)).toContain('Your email has been changed');
  const oldSignIn = await request.post('/api/en/auth/jwt/sign_in', { data: { email: account.email, password: account.password } });
  expect(oldSignIn.status()).toBe(400);
  const newSignIn = await request.post('/api/en/auth/jwt/sign_in', { data: { email: next, password: account.password } });
  expect(newSignIn.status()).toBe(200);
});
