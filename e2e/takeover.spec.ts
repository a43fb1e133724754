import { expect, linkFromMail, shoot, signUp, test } from './support';

// ADR 0038: an account created with someone else's address and a password of the creator's
// own. The owner gets in by magic link from a browser that never held that account's session; the
// creator's password and refresh token stop working, the owner is told, and sets a password of his own.
test("pre-registration takeover: the owner's magic link ends the attacker's password and session", async ({ page, request }) => {
  const attacker = await signUp(request, 'takeover');

  await page.goto('/login');
  await page.getByLabel('Email').fill(attacker.email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(page.getByText('An email is on its way!')).toBeVisible();
  await page.goto(await linkFromMail(request, attacker.email, 'magicLink='));

  await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();
  await expect(page.getByText('The password chosen when this account was created was removed')).toBeVisible();
  await shoot(page, 'takeover-notice');

  const attackerSignIn = await request.post('/api/en/auth/jwt/sign_in', { data: { email: attacker.email, password: attacker.password } });
  expect(attackerSignIn.status()).toBe(400);
  const attackerRefresh = await request.put('/api/en/auth/jwt/refresh', { headers: { authorization: `Bearer ${attacker.refreshToken}` } });
  expect(attackerRefresh.status()).toBe(401);

  // The owner sets a password through the link in the notice mail.
  await page.goto(await linkFromMail(request, attacker.email, 'reset-password?token='));
  await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
  await page.getByLabel('New password').fill('owner-pass-1234');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Your password has been changed. You can sign in now.')).toBeVisible();
  const ownerSignIn = await request.post('/api/en/auth/jwt/sign_in', { data: { email: attacker.email, password: 'owner-pass-1234' } });
  expect(ownerSignIn.status()).toBe(200);
});
