import { expect as baseExpect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';
import { adminClient, openSignedIn } from './support/api.ts';
import { pngBytes } from './support/images.ts';

// The machine these run on is shared and often loaded: give the admin screens room, asserting no timing.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

/** Issue 15 "Posts": write in Markdown, preview the server's rendering, upload media, publish, delete. */

test('an admin writes a post with an image, previews it, publishes it to the news feed and deletes it', async ({
  page,
  server,
  member,
}) => {
  test.slow();
  const service = adminClient(server);
  expect((await service.from('user_roles').insert({ user_id: member.id, role: 'admin' })).error).toBeNull();
  const title = `Harvest notes ${Date.now().toString(36)}`;
  try {
    await openSignedIn(page, server, member, '/admin/posts');
    await expect(page.getByRole('heading', { level: 2, name: 'Posts', exact: true })).toBeVisible();
    await page.getByRole('link', { name: 'New post' }).click();
    await expect(page.getByRole('heading', { level: 3, name: 'New post' })).toBeVisible();

    // Nothing is sent without a title and content.
    await page.getByRole('button', { name: 'Create post' }).click();
    await expect(page.getByText('Title is required')).toBeVisible();
    await expect(page.getByText('Content is required')).toBeVisible();

    await page.getByLabel(/^Title/).fill(title);
    await page.getByLabel(/^Content \(Markdown\)/).fill('## This week\n\nThe **greenhouse** is full.');

    // A text file named .png is refused before any upload; a real image uploads with progress.
    const picker = page.getByLabel('Choose an image to upload');
    await picker.setInputFiles({
      name: 'notes.png',
      mimeType: 'image/png',
      buffer: Buffer.from('not a picture'),
    });
    await expect(toastWith(page, 'Please select an image file.')).toBeVisible();
    await picker.setInputFiles({ name: 'greenhouse.png', mimeType: 'image/png', buffer: pngBytes(32, 32) });
    const media = page.getByRole('list', { name: 'Uploaded media' });
    await expect(media.getByRole('img', { name: 'Media 1' })).toBeVisible();
    await media.getByRole('button', { name: 'Insert in text' }).click();
    await expect(page.getByLabel(/^Content \(Markdown\)/)).toHaveValue(
      /!\[\]\(.+\/community-review-media\/admin-posts\/.+\.png\)/,
    );

    await page.getByRole('tab', { name: 'Preview' }).click();
    const preview = page.getByRole('tabpanel', { name: 'Preview' });
    await expect(preview.getByRole('heading', { name: 'This week' })).toBeVisible();
    await expect(preview.locator('strong')).toHaveText('greenhouse');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('switch', { name: 'Featured on the home page' }).click();
    await page.getByRole('button', { name: 'Create post' }).click();
    await expect(toastWith(page, 'Post created')).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/posts\/[0-9a-f-]{36}$/);
    await expect(page.getByRole('heading', { level: 3, name: 'Edit post' })).toBeVisible();

    const stored = await service
      .from('admin_posts')
      .select('body_html, featured, media_urls')
      .eq('title', title)
      .single();
    expect(stored.data?.featured).toBe(true);
    expect(stored.data?.body_html).toContain('<h2>This week</h2>');
    expect(stored.data?.media_urls).toHaveLength(1);

    // Readers find it in the news feed, as the team's.
    await page.goto('/news');
    await expect(page.getByText(title)).toBeVisible();

    await page.goto('/admin/posts');
    const row = page.getByRole('row').filter({ hasText: title });
    await expect(row).toContainText('Published');
    await expect(row).toContainText('Featured');
    await row.getByRole('button', { name: 'Delete' }).click();
    const ask = page.getByRole('alertdialog');
    await expect(ask).toContainText(`"${title}" is removed from the news feed`);
    await ask.getByRole('button', { name: 'Delete post' }).click();
    await expect(toastWith(page, 'Post deleted')).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: title })).toHaveCount(0);
  } finally {
    await service.from('admin_posts').delete().eq('title', title);
  }
});

test('a draft is saved as a draft and stays off the news feed', async ({ page, server, member }) => {
  const service = adminClient(server);
  expect((await service.from('user_roles').insert({ user_id: member.id, role: 'admin' })).error).toBeNull();
  const title = `Draft notes ${Date.now().toString(36)}`;
  try {
    await openSignedIn(page, server, member, '/admin/posts/new');
    await page.getByLabel(/^Title/).fill(title);
    await page.getByLabel(/^Content \(Markdown\)/).fill('Not ready yet.');
    await page.getByLabel('Status').selectOption('draft');
    await page.getByRole('button', { name: 'Create post' }).click();
    await expect(toastWith(page, 'Draft saved')).toBeVisible();
    await page.goto('/admin/posts');
    await expect(page.getByRole('row').filter({ hasText: title })).toContainText('Draft');
    // The list filters by state, in the address.
    await page.getByLabel('State', { exact: true }).selectOption('published');
    await expect(page).toHaveURL(/[?&]state=published/);
    await expect(page.getByRole('row').filter({ hasText: title })).toHaveCount(0);
    await page.getByLabel('State', { exact: true }).selectOption('draft');
    await expect(page).toHaveURL(/[?&]state=draft/);
    await expect(page.getByRole('row').filter({ hasText: title })).toContainText('Draft');
    await page.reload();
    await expect(page.getByLabel('State', { exact: true })).toHaveValue('draft');
    await expect(page.getByRole('row').filter({ hasText: title })).toBeVisible();
    const seen = await adminClient(server).rpc('news_feed', { p_category: 'Team' });
    expect((seen.data as { title: string }[]).map((row) => row.title)).not.toContain(title);
  } finally {
    await service.from('admin_posts').delete().eq('title', title);
  }
});

test('a post with a publish time ahead is listed as scheduled', async ({ page, server, member }) => {
  const service = adminClient(server);
  expect((await service.from('user_roles').insert({ user_id: member.id, role: 'admin' })).error).toBeNull();
  const title = `Scheduled notes ${Date.now().toString(36)}`;
  const published = `Published notes ${Date.now().toString(36)}`;
  try {
    const rows = await service.from('admin_posts').insert([
      {
        title,
        content: 'Later.',
        author_id: member.id,
        publish_at: new Date(Date.now() + 86_400_000).toISOString(),
      },
      { title: published, content: 'Now.', author_id: member.id },
    ]);
    expect(rows.error).toBeNull();
    await openSignedIn(page, server, member, '/admin/posts?state=scheduled');
    await expect(page.getByRole('row').filter({ hasText: title })).toContainText('Scheduled');
    await expect(page.getByRole('row').filter({ hasText: published })).toHaveCount(0);
    await page.getByLabel('State', { exact: true }).selectOption('published');
    await expect(page.getByRole('row').filter({ hasText: published })).toContainText('Published');
    await expect(page.getByRole('row').filter({ hasText: title })).toHaveCount(0);
  } finally {
    await service.from('admin_posts').delete().in('title', [title, published]);
  }
});
