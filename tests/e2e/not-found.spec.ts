import { expect, test } from './fixtures.ts';

test('an unknown path shows the not-found page with a working link home', async ({ page }) => {
  await page.goto('/this/page/does-not-exist?x=1');
  await expect(page.getByText('404', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: /Oops! Page not found/ })).toBeVisible();

  const home = page.getByRole('main').getByRole('link', { name: 'Return to Home' });
  await expect(home).toHaveAttribute('href', '/');
  await home.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: /The trusted hub/ })).toBeVisible();
});

test('a path under a known route is not found either', async ({ page }) => {
  await page.goto('/news/not-a-thing');
  await expect(page.getByRole('heading', { level: 1, name: /Oops! Page not found/ })).toBeVisible();
});
