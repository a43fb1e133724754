import { DEMO, JWT_PATTERN, expect, openNavigation, shoot, storedTokens, test, expectNoAxeViolations } from './support';

// SPEC §2 side navigation; UI contract "/login" and "Shell". Runs in the desktop and phone projects.
test.describe('sign-in with email and password', () => {
  test('the demo account lands on All Orders with the side navigation', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();
    await expect(page.getByText('Writing Service').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

    await openNavigation(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['New Order', 'All Orders', 'Transactions', 'Settings', 'My Bonuses']) {
      await expect(nav.getByRole('link', { name })).toBeVisible();
    }
    expect((await storedTokens(page)).accessToken).toMatch(JWT_PATTERN);
    await shoot(page, 'signed-in-dashboard');
    await expectNoAxeViolations(page, 'navigation open');
  });

  test('a wrong password shows the server message as an alert and stays on /login', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    // CONTRACT "Errors and access": wrong credentials answer 400 { message }, shown as an error.
    await expect(page.getByRole('alert').filter({ hasText: 'Wrong email or password' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect((await storedTokens(page)).accessToken).toBeNull();
    await shoot(page, 'sign-in-wrong-password');
    await expectNoAxeViolations(page, 'wrong password');
  });

  test('an empty password is refused before any call with the SPEC §5 message', async ({ page }) => {
    let signInCalls = 0;
    page.on('request', (request) => {
      if (request.url().includes('/api/en/auth/jwt/sign_in')) signInCalls += 1;
    });
    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await expect(page.getByText('The "Password" field is mandatory.')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    expect(signInCalls).toBe(0);
    await shoot(page, 'sign-in-empty-password');
    await expectNoAxeViolations(page, 'empty password');
  });
});
