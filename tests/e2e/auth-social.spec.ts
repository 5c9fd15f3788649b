import { expect, test } from './fixtures.ts';

test('social sign-in against the local OpenID Connect provider completes and closes the dialog', async ({
  page,
}) => {
  const email = process.env.E2E_SOCIAL_EMAIL;
  test.skip(!email, 'needs the OpenID Connect provider the global setup starts');
  await page.goto('/brand-directory');
  await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
  const dialog = page.getByRole('dialog', { name: 'HighGrade' });
  await dialog.getByRole('button', { name: 'Continue with Google' }).click();

  // Provider → /auth/v1/callback → the site root with the session, and the dialog is gone.
  await expect(page).toHaveURL(/\/$/);
  await expect(dialog).toHaveCount(0);
  const menu = page
    .getByRole('banner')
    .getByRole('button', { name: (email as string).split('@')[0], exact: true });
  await expect(menu).toBeVisible();
  // No tokens left in the address bar.
  expect(new URL(page.url()).hash).toBe('');
});
