import { expect, linkFromMail, shoot, signUp, test, expectNoAxeViolations } from './support';

// CONTRACT "Identity" (forgot password) and UI contract "/login", "/reset-password".
test('forgot password: the emailed link sets a new password that then signs in', async ({ page, request }) => {
  // A fresh account, so the demo password stays as it is and reruns work.
  const account = await signUp(request, 'forgot');

  await page.goto('/login');
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Forgot password' });
  await expect(dialog).toBeVisible();
  await expectNoAxeViolations(page, 'forgot password dialog');
  await dialog.getByLabel('Email').fill(account.email);
  await dialog.getByRole('button', { name: 'Send new password' }).click();
  await expect(page.getByText('Check your email for a new password.')).toBeVisible();
  await shoot(page, 'forgot-password-sent');
  await expectNoAxeViolations(page, 'new password sent');

  const link = await linkFromMail(request, account.email, 'reset-password?token=');
  // The dialog may still be open; a fresh navigation is what a reader clicking the mail does.
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Set a new password' })).toBeVisible();
  const newPassword = `${account.password}-new`;
  await page.getByLabel('New password').fill(newPassword);
  await shoot(page, 'reset-password');
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Set new password' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your password has been changed. You can sign in now.')).toBeVisible();
  // The toast may come before the sign-in page's code has loaded (the toaster is part of the shell).
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expectNoAxeViolations(page, 'password changed');

  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();

  // The old password no longer works (checked through the API to keep the journey short).
  const old = await request.post('/api/en/auth/jwt/sign_in', { data: { email: account.email, password: account.password } });
  expect(old.status()).toBe(400);
});
