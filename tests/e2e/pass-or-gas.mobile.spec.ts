import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient } from './support/api.ts';

test('Pass or Gas on a phone: one column of cards with their vote buttons', async ({ page, server }) => {
  const name = `Mobile Product ${Date.now()}`;
  const { data, error } = await adminClient(server)
    .from('products')
    .insert({ name, category: 'Flower' })
    .select('id')
    .single();
  expect(error).toBeNull();
  await page.goto(`/pass-or-gas?q=${encodeURIComponent(name)}`);
  const card = page.getByTestId('product-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByRole('button', { name: /^Gas/ })).toBeVisible();
  const box = await card.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport ? box.width / viewport.width : 0).toBeGreaterThan(0.8);
  await card.getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/pass-or-gas/${data?.id}$`));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
