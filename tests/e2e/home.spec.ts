import { randomBytes } from 'node:crypto';
import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient, createMember, deleteMember, type Member } from './support/api.ts';
import { expectHomeLeaders } from './support/home-leaders.ts';

/** Issue 21 "Home": every section shows real data from its area, links to its page, and nothing moves. */

const FIRST_LOAD = { timeout: 30_000 };
test.describe.configure({ timeout: 180_000 });

const seeded = {
  articles: [] as string[],
  sources: [] as string[],
  posts: [] as string[],
  products: [] as string[],
  brands: [] as string[],
  members: [] as Member[],
};

test.afterAll(async ({ server }) => {
  const service = adminClient(server);
  if (seeded.articles.length) await service.from('news_articles').delete().in('id', seeded.articles);
  if (seeded.sources.length) await service.from('news_sources').delete().in('id', seeded.sources);
  if (seeded.posts.length) await service.from('admin_posts').delete().in('id', seeded.posts);
  if (seeded.products.length) await service.from('products').delete().in('id', seeded.products);
  if (seeded.brands.length) await service.from('brands').delete().in('id', seeded.brands);
  for (const m of seeded.members) await deleteMember(server, m);
});

let t = '';
let leaderId = '';
let brandSlug = '';

// Real content of every area, made through the service key before the tests and removed after them.
test.beforeAll(async ({ server }) => {
  test.setTimeout(180_000);
  const author = await createMember(server);
  seeded.members.push(author);
  t = randomBytes(4).toString('hex');
  const service = adminClient(server);

  // The newest news: six articles of a source of our own, published in the last minutes.
  const { data: source, error: sourceError } = await service
    .from('news_sources')
    .insert({ name: `Home Gazette ${t}`, feed_url: `https://home-${t}.example/feed`, category: `Home${t}` })
    .select('id')
    .single();
  expect(sourceError).toBeNull();
  seeded.sources.push(source?.id);
  const articles = Array.from({ length: 6 }, (_, index) => {
    const id = crypto.randomUUID();
    const title = `Home story ${index + 1} of ${t}`;
    return {
      id,
      story_id: id,
      source_id: source?.id,
      title,
      url: `https://home-${t}.example/story-${index + 1}`,
      url_key: `home-${t}.example/story-${index + 1}`,
      summary: 'A story for the home page test.',
      source_name: `Home Gazette ${t}`,
      category: `Home${t}`,
      // In the future of every other test's articles (a future time is kept as given by the service key).
      published_at: new Date(Date.now() + (10 - index) * 60_000).toISOString(),
      fingerprint: title.toLowerCase(),
      is_sample: false,
    };
  });
  expect((await service.from('news_articles').insert(articles)).error).toBeNull();
  seeded.articles.push(...articles.map((row) => row.id));

  // A featured post of the team, and one not featured (which stays off the home page).
  const posts = await service
    .from('admin_posts')
    .insert([
      {
        title: `Featured note ${t}`,
        content: 'We **launched** the directory.',
        featured: true,
        author_id: author.id,
      },
      { title: `Plain note ${t}`, content: 'Not featured.', featured: false, author_id: author.id },
    ])
    .select('id');
  expect(posts.error).toBeNull();
  seeded.posts.push(...(posts.data ?? []).map((row) => row.id as string));

  // A verified brand, its product with ten Gas votes (first under Top), and four more products.
  const brand = await service
    .from('brands')
    .insert({
      name: `Home Verified ${t}`,
      slug: `home-verified-${t}`,
      states: ['CO'],
      licence_number: `CO-${t}`,
      licence_state: 'CO',
      verification: 'verified',
      verified_at: new Date(Date.now() - 60_000).toISOString(),
      verification_note: 'Checked on the state register.',
    })
    .select('id, slug')
    .single();
  expect(brand.error).toBeNull();
  seeded.brands.push(brand.data?.id);
  const products = await service
    .from('products')
    .insert(
      ['Leader', 'Second', 'Third', 'Fourth', 'Fifth'].map((name) => ({
        name: `${name} Kush ${t}`,
        category: 'Flower',
        brand_id: brand.data?.id,
        description: 'A product for the home page test.',
      })),
    )
    .select('id, name');
  expect(products.error).toBeNull();
  seeded.products.push(...(products.data ?? []).map((row) => row.id as string));
  const leader = products.data?.find((row) => row.name === `Leader Kush ${t}`);
  for (let i = 0; i < 10; i += 1) {
    const voter = await createMember(server);
    seeded.members.push(voter);
    const vote = await service
      .from('product_votes')
      .insert({ user_id: voter.id, product_id: leader?.id, vote_type: 'gas' });
    expect(vote.error).toBeNull();
  }

  leaderId = leader?.id as string;
  brandSlug = brand.data?.slug as string;
});

test('the home page shows featured posts, the latest news, leaders, indices and verified brands from the API', async ({
  page,
  server,
}) => {
  const service = adminClient(server);
  await page.goto('/');

  const featured = page.getByRole('region', { name: 'Featured from the team' });
  await expect(featured.getByRole('heading', { level: 3, name: `Featured note ${t}` })).toBeVisible(
    FIRST_LOAD,
  );
  await expect(featured).toContainText('We launched the directory.');
  await expect(featured).not.toContainText(`Plain note ${t}`);
  await expect(featured.getByRole('link', { name: 'All team posts' })).toHaveAttribute(
    'href',
    '/news?category=Team',
  );

  const news = page.getByRole('region', { name: 'Latest news' });
  await expect(news.getByRole('listitem')).toHaveCount(6, FIRST_LOAD);
  for (let i = 0; i < 6; i += 1) {
    await expect(news.getByRole('listitem').nth(i)).toContainText(`Home story ${i + 1} of ${t}`);
  }
  await expect(news.getByRole('link', { name: `Home story 1 of ${t}` })).toHaveAttribute(
    'href',
    `https://home-${t}.example/story-1`,
  );
  await expect(news.getByRole('link', { name: 'All news' })).toHaveAttribute('href', '/news');

  // The Top five in the ranking's order (read together with the ranking: other files' tests vote).
  const leaders = page.getByRole('region', { name: 'Top-rated on Pass or Gas' });
  await expect(leaders.getByRole('listitem')).toHaveCount(5, FIRST_LOAD);
  await expectHomeLeaders<{ id: string; name: string }>(page, service, 'name', async (ranked, items) => {
    for (const [index, row] of ranked.entries()) {
      await expect(items.nth(index)).toContainText(row.name, { timeout: 2_000 });
    }
  });
  const leaderRow = leaders.getByRole('listitem').filter({ hasText: `Leader Kush ${t}` });
  await expect(leaderRow).toContainText('100% Gas');
  await expect(leaderRow).toContainText('10 votes');
  await expect(leaderRow.getByRole('link', { name: `Leader Kush ${t}` })).toHaveAttribute(
    'href',
    `/pass-or-gas/${leaderId}`,
  );

  const market = page.getByRole('region', { name: 'Market index' });
  const indices = await service.from('market_indices').select('slug, name').order('sort_order');
  for (const index of indices.data ?? []) {
    const latest = await service
      .from('index_points')
      .select('value, is_sample')
      .eq('index_slug', index.slug)
      .order('date', { ascending: false })
      .limit(1)
      .maybeSingle();
    if (!latest.data) continue;
    const card = market.getByRole('listitem').filter({ hasText: index.name as string });
    await expect(card).toContainText(Number(latest.data.value).toFixed(2), FIRST_LOAD);
    await expect(card.locator('svg polyline')).toBeAttached();
    if (latest.data.is_sample) await expect(card).toContainText('Sample');
  }

  const brands = page.getByRole('region', { name: 'Recently added brands with a verified licence' });
  await expect(brands.getByRole('link', { name: `Home Verified ${t}` })).toHaveAttribute(
    'href',
    `/brand-directory/${brandSlug}`,
  );
  await expect(brands.getByRole('listitem').first()).toContainText(`Home Verified ${t}`);
  // Promoted with its licence number (issue 18: some states require it in advertising).
  await expect(brands.getByRole('listitem').first()).toContainText(`Licence verified · CO CO-${t} · CO`);

  // The calls to action.
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'Book a promo session' })).toHaveAttribute('href', '/booking');
  await expect(main.getByRole('button', { name: 'Open the Scammer Network' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  // Each section's link opens its page.
  await leaders.getByRole('link', { name: 'All rankings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Pass or Gas' })).toBeVisible(FIRST_LOAD);
});

test('while the data load, placeholders hold each section and nothing below moves (layout shift)', async ({
  page,
}) => {
  await page.addInitScript(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!entry.hadRecentInput) w.__shift += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  // Tall enough for every section to be laid out: sections below the fold are skipped until the reader
  // comes near them (content-visibility, decision 160), and this measures what the placeholders hold.
  await page.setViewportSize({ width: 1280, height: 3200 });
  // Every API answer arrives late, so the placeholders are seen first (the answers themselves are real).
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/rest/v1/**', async (route) => {
    await released;
    await route.continue();
  });
  await page.goto('/');
  const news = page.getByRole('region', { name: 'Latest news' });
  await expect(news.getByRole('status')).toContainText('Loading latest news', FIRST_LOAD);
  const footer = page.getByRole('contentinfo');
  const before = await footer.boundingBox();
  release();
  await expect(news.getByRole('listitem')).toHaveCount(6, FIRST_LOAD);
  await expect(
    page.getByRole('region', { name: 'Top-rated on Pass or Gas' }).getByRole('listitem'),
  ).toHaveCount(5, FIRST_LOAD);
  await expect(page.locator('[data-testid^="home-"]').getByRole('status')).toHaveCount(0, FIRST_LOAD);
  const after = await footer.boundingBox();
  // The featured, index and brand boxes keep their size whatever they hold; news and leaders are full.
  expect(Math.abs((after?.y ?? 0) - (before?.y ?? 0))).toBeLessThan(2);
  const shift = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
  expect(shift).toBeLessThanOrEqual(0.02);
});
