import { randomBytes } from 'node:crypto';
import { type FeedServer, rss, startFeedServer } from '#tests/support/feed-server.ts';
import { expect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import { adminClient, openSignedIn, type ServerInfo } from './support/api.ts';

/**
 * The news page and /admin/news (product §news, issue 16) on the shared e2e server: each test files its
 * articles under a category of its own, so tests never see each other's rows. One file, run in order
 * by one worker: the first real article removes every sample (decision 105), so the sample test must
 * not run beside a test that adds real articles.
 */

let feeds: FeedServer;
test.beforeAll(async () => {
  feeds = await startFeedServer();
});
test.afterAll(async () => {
  await feeds?.close();
});

interface Seeded {
  category: string;
  word: string;
  titles: string[];
}

/**
 * What the tests seeded, removed after each test: the browser-test server is shared, and a later
 * spec's page (routes.spec's /news) must not show this spec's articles — one has an image that
 * cannot load, which Chromium logs as an error.
 */
const seededArticles: string[] = [];
const seededSources: string[] = [];

test.afterEach(async ({ server }) => {
  const admin = adminClient(server);
  if (seededArticles.length > 0) {
    const { error } = await admin.from('news_articles').delete().in('id', seededArticles.splice(0));
    expect(error).toBeNull();
  }
  if (seededSources.length > 0) {
    const { error } = await admin.from('news_sources').delete().in('id', seededSources.splice(0));
    expect(error).toBeNull();
  }
});

async function seedNews(
  server: ServerInfo,
  count: number,
  options: { sample?: boolean; image?: string } = {},
): Promise<Seeded> {
  const tag = randomBytes(4).toString('hex');
  const category = `Cat${tag}`;
  const word = `zq${tag}`;
  const admin = adminClient(server);
  const { data: source, error } = await admin
    .from('news_sources')
    .insert({ name: `Gazette ${tag}`, feed_url: `https://gazette-${tag}.example/feed`, category })
    .select('id')
    .single();
  expect(error).toBeNull();
  const now = Date.now();
  const rows = Array.from({ length: count }, (_, index) => {
    const id = crypto.randomUUID();
    const title = `${options.sample ? 'Sample headline: ' : ''}Story ${index + 1} of ${tag}${index === 0 ? ` mentions ${word}` : ''}`;
    return {
      id,
      story_id: id,
      source_id: options.sample ? null : source?.id,
      title,
      url: `https://gazette-${tag}.example/story-${index + 1}`,
      url_key: `gazette-${tag}.example/story-${index + 1}`,
      summary: `Summary of story ${index + 1}.`,
      image_url: options.image ?? null,
      source_name: options.sample ? 'Sample source' : `Gazette ${tag}`,
      category,
      published_at: new Date(now - (index + 1) * 3600_000).toISOString(),
      fingerprint: title.toLowerCase(),
      is_sample: options.sample ?? false,
    };
  });
  const inserted = await admin.from('news_articles').insert(rows);
  expect(inserted.error).toBeNull();
  seededArticles.push(...rows.map((row) => row.id));
  if (source?.id) seededSources.push(source.id);
  return { category, word, titles: rows.map((row) => row.title) };
}

const cards = (page: import('@playwright/test').Page) => page.getByTestId('news-card');

test.slow();

test('category chips filter the feed and the URL keeps the filter; Load more pages through', async ({
  page,
  server,
}) => {
  const seeded = await seedNews(server, 25);
  await page.goto('/news');
  const chip = page.getByRole('button', { name: seeded.category, exact: true });
  await chip.click();
  await expect(page).toHaveURL(new RegExp(`[?&]category=${seeded.category}`));
  await expect(chip).toHaveAttribute('aria-pressed', 'true');
  await expect(cards(page)).toHaveCount(20);
  await expect(cards(page).first()).toContainText(seeded.titles[0] as string);
  await expect(cards(page).first()).toContainText('1 h ago');
  await expect(cards(page).first().locator('time')).toHaveAttribute('title', /\d{4}/);
  const link = cards(page)
    .first()
    .getByRole('link', { name: new RegExp(seeded.titles[0] as string) });
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Load more' }).click();
  await expect(cards(page)).toHaveCount(25);
  await expect(cards(page).last()).toContainText(seeded.titles[24] as string);
  await expect(page.getByText('You have reached the end of the feed.')).toBeVisible();

  // A reload keeps the filter.
  await page.reload();
  await expect(page.getByRole('button', { name: seeded.category, exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(cards(page)).toHaveCount(20);
});

test('search finds and highlights matches; no match shows the empty state', async ({ page, server }) => {
  const seeded = await seedNews(server, 3);
  await page.goto('/news');
  await page.getByRole('searchbox', { name: 'Search news' }).fill(seeded.word);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${seeded.word}`));
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).locator('mark')).toHaveText(seeded.word);
  await page.getByLabel('Sort by').selectOption('relevance');
  await expect(page).toHaveURL(/sort=relevance/);
  await expect(cards(page)).toHaveCount(1);
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('searchbox', { name: 'Search news' }).fill(`${seeded.word}nothing`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'No matching articles' })).toBeVisible();
  await page.getByRole('button', { name: 'Show all news' }).click();
  await expect(page).toHaveURL(/\/news$/);
});

test('a visitor’s heart opens the sign-in dialog', async ({ page, server }) => {
  const seeded = await seedNews(server, 1);
  await page.goto(`/news?category=${seeded.category}`);
  await cards(page)
    .first()
    .getByRole('button', { name: /^Save "/ })
    .click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test.describe('saving', () => {
  // The article's image does not load (the card falls back to an icon); Chromium logs that.
  test.use({ allowConsoleErrors: true });

  test('a member saves and unsaves an article; the profile’s Saved tab shows it', async ({
    page,
    server,
    member,
  }) => {
    const seeded = await seedNews(server, 2, { image: 'https://images.invalid/broken.jpg' });
    await openSignedIn(page, server, member, `/news?category=${seeded.category}`);
    const card = cards(page).filter({ hasText: seeded.titles[0] as string });
    // The image cannot load: the card shows its fallback instead.
    await expect(card.locator('img')).toHaveCount(0);
    const heart = card.getByRole('button', { name: `Save "${seeded.titles[0]}"` });
    await heart.click();
    await expect(toastWith(page, 'Article Saved')).toBeVisible();
    const saved = card.getByRole('button', { name: `Remove "${seeded.titles[0]}" from saved articles` });
    await expect(saved).toHaveAttribute('aria-pressed', 'true');
    const { data } = await adminClient(server)
      .from('saved_articles')
      .select('article_title, article_source, article_category, article_url, article_summary')
      .eq('user_id', member.id);
    expect(data).toEqual([
      {
        article_title: seeded.titles[0],
        article_source: expect.stringMatching(/^Gazette /),
        article_category: seeded.category,
        article_url: expect.stringMatching(/\/story-1$/),
        article_summary: 'Summary of story 1.',
      },
    ]);

    await page.goto('/profile?tab=saved');
    // The profile page's code loads on first visit; on a busy machine that takes a while.
    await expect(page.getByText('Saved Articles (1)')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('tabpanel')).toContainText(seeded.titles[0] as string);

    await page.goto(`/news?category=${seeded.category}`);
    await saved.click();
    await expect(toastWith(page, 'Article Removed')).toBeVisible();
    await expect(heart).toHaveAttribute('aria-pressed', 'false');
    const after = await adminClient(server).from('saved_articles').select('id').eq('user_id', member.id);
    expect(after.data).toEqual([]);
  });
});

test('an admin adds a source after testing it, refreshes it, hides an article, disables and deletes it', async ({
  page,
  server,
  member,
}) => {
  const tag = randomBytes(4).toString('hex');
  const name = `Loopback Gazette ${tag}`;
  const titles = [`Regulators meet ${tag}`, `Growers gather ${tag}`];
  feeds.feed(
    `/${tag}.xml`,
    rss(
      name,
      titles.map((title, index) => ({
        guid: `${tag}-${index}`,
        title,
        link: `https://loopback-${tag}.example/${index}`,
        summary: `<p>About ${title}</p>`,
        date: new Date(Date.now() - (index + 1) * 3600_000),
      })),
    ),
  );
  const { error } = await adminClient(server)
    .from('user_roles')
    .insert({ user_id: member.id, role: 'admin' });
  expect(error).toBeNull();
  await openSignedIn(page, server, member, '/admin/news');
  await expect(page.getByRole('heading', { level: 2, name: 'News sources' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByTestId('news-source').filter({ hasText: 'Marijuana Moment' })).toContainText(
    'data/news-sources.csv',
  );
  await expectNoSeriousA11yViolations(page);

  await page.getByRole('button', { name: 'Add source' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a news source' });
  await dialog.getByRole('button', { name: 'Save source' }).click();
  await expect(dialog.getByText('Name is required')).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Feed URL').fill(`${feeds.url}/${tag}.xml`);
  await dialog.getByLabel('Category').fill(`Cat${tag}`);
  await dialog.getByRole('button', { name: 'Test feed' }).click();
  const preview = dialog.getByRole('region', { name: 'Feed preview' });
  await expect(preview).toContainText('RSS, 2 items');
  await expect(preview).toContainText(titles[0] as string);
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Save source' }).click();
  await expect(toastWith(page, 'Source added')).toBeVisible();

  const row = page.getByTestId('news-source').filter({ hasText: name });
  await expect(row).toContainText('Not fetched yet');
  await row.getByRole('button', { name: `Refresh ${name}` }).click();
  await expect(toastWith(page, `${name} refreshed`)).toContainText('2 new articles');
  await expect(row).toContainText('2 articles');
  await expect(row).toContainText('OK');

  // Found by the words of its title, in another case and with punctuation (decision 257).
  await page.getByLabel('Find articles by title').fill(`REGULATORS, meet ${tag}!`);
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await expect(page.getByTestId('news-admin-article')).toHaveCount(1);
  const article = page.getByTestId('news-admin-article').filter({ hasText: titles[0] as string });
  await expect(article).toBeVisible();
  await article.getByRole('button', { name: `Hide ${titles[0]}` }).click();
  await expect(toastWith(page, 'Article hidden')).toBeVisible();
  await expect(article).toContainText('hidden');
  const visible = await adminClient(server).from('news_articles').select('hidden').eq('title', titles[0]);
  expect(visible.data).toEqual([{ hidden: true }]);

  await row.getByRole('switch', { name: `${name} enabled` }).click();
  await expect(row).toContainText('Disabled');

  await row.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('alertdialog', { name: `Delete ${name}?` });
  await expect(confirm).toContainText('its 2 articles');
  await confirm.getByRole('button', { name: 'Delete source' }).click();
  // The source's articles go with it: a larger statement than the others on a busy machine.
  await expect(toastWith(page, 'Source deleted')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('news-source').filter({ hasText: name })).toHaveCount(0);
  const gone = await adminClient(server).from('news_articles').select('id').eq('title', titles[1]);
  expect(gone.data).toEqual([]);
});

test('sample articles are labelled as samples', async ({ page, server }) => {
  const seeded = await seedNews(server, 2, { sample: true });
  await page.goto(`/news?category=${seeded.category}`);
  await expect(cards(page)).toHaveCount(2);
  for (const card of await cards(page).all()) {
    await expect(
      card.getByTitle(/^Sample content: shown until real news sources deliver articles/),
    ).toBeVisible();
    await expect(card).toContainText('not real news');
    // A sample cannot be saved (decision 175): no heart, the reason instead.
    await expect(card.getByText('Samples cannot be saved', { exact: true })).toBeVisible();
    await expect(card.getByRole('button', { name: /^Save "/ })).toHaveCount(0);
  }
  await expectNoSeriousA11yViolations(page);
});
