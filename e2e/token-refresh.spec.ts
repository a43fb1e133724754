import { JWT_PATTERN, expect, openSignedIn, shoot, signUp, storedTokens, test, expectNoAxeViolations } from './support';

// SPEC §8 "Transport": a 401 triggers the refresh; the user keeps working without noticing.
test('a rejected access token is refreshed transparently and the shell stays signed in', async ({ page, request }) => {
  const account = await signUp(request, 'refresh');
  await openSignedIn(page, account, '/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();

  // A token the server cannot verify stands in for an expired one (both answer 401).
  await page.evaluate(() => localStorage.setItem('accessToken', 'expired.token.value'));
  const refreshed = page.waitForResponse((r) => r.url().endsWith('/api/en/auth/jwt/refresh') && r.request().method() === 'PUT');
  await page.reload();
  expect((await refreshed).status()).toBe(200);

  await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  const tokens = await storedTokens(page);
  expect(tokens.accessToken).toMatch(JWT_PATTERN);
  expect(tokens.accessToken).not.toBe(account.accessToken);
  // CONTRACT "Identity": refresh tokens rotate on every refresh.
  expect(tokens.refreshToken).not.toBe(account.refreshToken);
  await shoot(page, 'token-refreshed');
  await expectNoAxeViolations(page);
});
