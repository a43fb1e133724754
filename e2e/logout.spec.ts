import { expect, openSignedIn, shoot, signUp, storedTokens, test, expectNoAxeViolations } from './support';

// UI contract "Logout"; SPEC §8: logout goes to /order?full on the order wizard, otherwise /login.
test.describe('log out', () => {
  test('from the dashboard clears both tokens, revokes the refresh token and goes to /login', async ({ page, request }) => {
    const account = await signUp(request, 'logout');
    await openSignedIn(page, account, '/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();

    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    expect(await storedTokens(page)).toEqual({ accessToken: null, refreshToken: null });
    // The sign-in page's code loads after the move: check it once it is drawn (CI once ran axe on the blank moment).
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await shoot(page, 'logged-out');
    await expectNoAxeViolations(page, 'logged out');

    // CONTRACT "Identity": the web app's logout revoked the refresh token on the server.
    const refresh = await request.put('/api/en/auth/jwt/refresh', { headers: { Authorization: `Bearer ${account.refreshToken}` } });
    expect(refresh.status()).toBe(401);
  });

  test('from the order page goes to /order?full', async ({ page, request }) => {
    const account = await signUp(request, 'logout-order');
    await openSignedIn(page, account, '/order');
    await expect(page.getByRole('heading', { level: 1, name: 'New Order' })).toBeVisible();
    await shoot(page, 'order-signed-in');
    await expectNoAxeViolations(page, 'signed in');

    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page).toHaveURL(/\/order\?full$/);
    expect(await storedTokens(page)).toEqual({ accessToken: null, refreshToken: null });
  });
});
