import { randomBytes, randomUUID } from 'node:crypto';
import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient } from './support/api.ts';

test.slow();

test('the news page fits a phone: one column of cards, chips scroll sideways, nothing overflows', async ({
  page,
  server,
}) => {
  const category = `Cat${randomBytes(4).toString('hex')}`;
  const admin = adminClient(server);
  await admin
    .from('news_sources')
    .insert({ name: `Phone ${category}`, feed_url: `https://${category}.example/f`, category });
  const rows = [1, 2].map((index) => {
    const id = randomUUID();
    return {
      id,
      story_id: id,
      title: `Phone story ${index} ${category}`,
      url: `https://${category}.example/${index}`,
      url_key: `${category}.example/${index}`,
      summary: 'A summary long enough to wrap on a narrow screen, which it should do without overflowing.',
      source_name: `Phone ${category}`,
      category,
      published_at: new Date(Date.now() - index * 60_000).toISOString(),
      fingerprint: `phone story ${index}`,
    };
  });
  expect((await admin.from('news_articles').insert(rows)).error).toBeNull();

  await page.goto(`/news?category=${category}`);
  await expect(page.getByRole('heading', { level: 1, name: 'News' })).toBeVisible();
  const cards = page.getByTestId('news-card');
  await expect(cards).toHaveCount(2);
  const first = await cards.nth(0).boundingBox();
  const second = await cards.nth(1).boundingBox();
  expect(second?.y ?? 0).toBeGreaterThanOrEqual((first?.y ?? 0) + (first?.height ?? 0));
  expect(second?.x).toBe(first?.x);
  const chips = page.getByRole('group', { name: 'Category' });
  expect(await chips.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoSeriousA11yViolations(page);
});
