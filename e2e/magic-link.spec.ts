import { JWT_PATTERN, expect, linkFromMail, shoot, signUp, storedTokens, test, expectNoAxeViolations } from './support';

// CONTRACT "Identity" (magic link) and UI contract "Startup" / "/login".
test('a magic link from the outbox signs in once, and only once', async ({ page, request, browser, baseURL, extraHTTPHeaders }) => {
  const account = await signUp(request, 'magic');

  await page.goto('/login');
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('An email is on its way!')).toBeVisible();
  await expect(page.getByText(`We sent an email to ${account.email} with a link to sign in. The link expires in 12 hours`)).toBeVisible();
  await shoot(page, 'magic-link-sent');
  await expectNoAxeViolations(page, 'magic link sent');

  const link = await linkFromMail(request, account.email, 'magicLink=');
  expect(link).toMatch(/^\/dashboard\?magicLink=/);

  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();
  // The token leaves the address bar (history replace), the tokens land in storage.
  await expect(page).toHaveURL(/\/dashboard$/);
  expect((await storedTokens(page)).accessToken).toMatch(JWT_PATTERN);
  await shoot(page, 'magic-link-signed-in');
  await expectNoAxeViolations(page, 'signed in by magic link');

  // A second use, in a browser that holds no tokens: the link is spent.
  const other = await browser.newContext({ baseURL, extraHTTPHeaders, bypassCSP: true });
  const second = await other.newPage();
  await second.goto(link);
  await expect(second.getByText('This link is invalid or has expired')).toBeVisible();
  await expect(second).toHaveURL(/\/login$/);
  expect((await storedTokens(second)).accessToken).toBeNull();
  await shoot(second, 'magic-link-used');
  await expectNoAxeViolations(second, 'spent link');
  await other.close();
});
