import { expect, openSignedIn, shoot, signUp, test, expectNoAxeViolations } from './support';

// SPEC §9 / UI contract "Shell": below 992 px the side navigation sits behind "Menu". Phone project only.
test('at 390 px the side navigation opens from "Menu" and leads to its pages', async ({ page, request }) => {
  const account = await signUp(request, 'phone');
  await openSignedIn(page, account, '/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'All Orders' })).toBeVisible();

  const menu = page.getByRole('button', { name: 'Menu' });
  const transactions = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Transactions' });
  await expect(menu).toBeVisible();
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(transactions).toBeHidden();
  await shoot(page, 'phone-menu-closed');
  await expectNoAxeViolations(page, 'menu closed');

  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(transactions).toBeVisible();
  await shoot(page, 'phone-menu-open');
  await expectNoAxeViolations(page, 'menu open');

  await transactions.click();
  await expect(page).toHaveURL(/\/transactions$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
  await expectNoAxeViolations(page);
});
