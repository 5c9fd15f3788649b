import { randomBytes } from 'node:crypto';
import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient } from './support/api.ts';

test('the brand directory on a phone: one column of cards, the trust page readable', async ({
  page,
  server,
}) => {
  const t = randomBytes(3).toString('hex');
  const name = `Mobile Brand ${t}`;
  const { data, error } = await adminClient(server)
    .from('brands')
    .insert({
      name,
      slug: `mobile-brand-${t}`,
      states: ['MI'],
      categories: ['Edibles'],
      licence_number: `M-${t}`,
    })
    .select('id, slug')
    .single();
  expect(error).toBeNull();
  try {
    await page.goto(`/brand-directory?q=${encodeURIComponent(name)}`);
    // Typo tolerance may also list similar names (another run's "Mobile Brand …"); ours comes first.
    const card = page.getByTestId('brand-card').first();
    await expect(card).toContainText(name, { timeout: 30_000 });
    const box = await card.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport ? box.width / viewport.width : 0).toBeGreaterThan(0.8);
    await expectNoSeriousA11yViolations(page);
    await card.getByRole('link', { name }).click();
    await expect(page).toHaveURL(new RegExp(`/brand-directory/${data?.slug}$`));
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    await expect(page.getByTestId('verification-text')).toContainText('has not been verified');
    await expectNoSeriousA11yViolations(page);
  } finally {
    await adminClient(server).from('brands').delete().eq('id', data?.id);
  }
});
