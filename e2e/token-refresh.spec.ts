import { JWT_PATTERN, expect, openSignedIn, shoot, signUp, storedTokens, test, expectNoAxeViolations } from './support';

const REFRESH_PATH = '/api/en/auth/jwt/refresh';
const isRefresh = (url: string, method: string): boolean => url.endsWith(REFRESH_PATH) && method === 'PUT';

// SPEC §8 "Transport": a 401 triggers the refresh; the user keeps working without noticing.
test('a rejected access token is refreshed transparently and the shell stays signed in', async ({ page, request }) => {
  const account = await signUp(request, 'refresh');
  // A token the server cannot verify stands in for an expired one (both answer 401). It is stored while
  // no app page runs (openSignedIn passes through /healthz), so only the page opened next acts on it.
  const refreshed = page.waitForResponse((r) => isRefresh(r.url(), r.request().method()));
  await openSignedIn(page, { accessToken: 'expired.token.value', refreshToken: account.refreshToken }, '/dashboard');
  expect((await refreshed).status()).toBe(200);

  await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  const tokens = await storedTokens(page);
  // A fresh access token (byte-equal to the sign-up's when both were signed within one second).
  expect(tokens.accessToken).toMatch(JWT_PATTERN);
  // CONTRACT "Identity": refresh tokens rotate on every refresh.
  expect(tokens.refreshToken).not.toBe(account.refreshToken);
  await shoot(page, 'token-refreshed');
  await expectNoAxeViolations(page);
});

// ADR 0061: the server rotated the token but its answer never reached the page (a dropped connection).
// The page asks again with the token it still holds and gets the same rotation: no sign-out.
test('a refresh whose answer was lost on the way is asked again and the customer stays signed in', async ({ page, request }) => {
  const account = await signUp(request, 'refresh-lost');
  let asked = 0;
  await page.route(`**${REFRESH_PATH}`, async (route) => {
    asked += 1;
    if (asked > 1) return route.fallback();
    await route.fetch(); // the server rotates...
    await route.abort('connectionreset'); // ...and the answer is lost on the way
  });
  await openSignedIn(page, { accessToken: 'expired.token.value', refreshToken: account.refreshToken }, '/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect.poll(async () => (await storedTokens(page)).refreshToken).not.toBe(account.refreshToken);
  expect(asked).toBe(2);
});

// The same, when the page is reloaded or closed before any answer arrives (every ask lost).
test('a refresh lost to a reload keeps the customer signed in on the reloaded page', async ({ page, request }) => {
  const account = await signUp(request, 'refresh-reload');
  let lost = 0;
  await page.route(`**${REFRESH_PATH}`, async (route) => {
    lost += 1;
    await route.fetch();
    await route.abort('connectionreset');
  });
  await openSignedIn(page, { accessToken: 'expired.token.value', refreshToken: account.refreshToken }, '/dashboard');
  await expect.poll(() => lost).toBe(2);
  expect((await storedTokens(page)).refreshToken).toBe(account.refreshToken);
  await page.unroute(`**${REFRESH_PATH}`);

  const refreshed = page.waitForResponse((r) => isRefresh(r.url(), r.request().method()));
  await page.reload();
  expect((await refreshed).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  const tokens = await storedTokens(page);
  expect(tokens.refreshToken).not.toBe(account.refreshToken);
  // The stored pair works: the customer's profile answers with it.
  const profile = await request.get('/api/en/customers/customer', { headers: { authorization: `Bearer ${tokens.accessToken}` } });
  expect(profile.status()).toBe(200);
});
