import { randomBytes } from 'node:crypto';
import { expect as baseExpect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient, sessionOf } from './support/api.ts';
import { pngBytes } from './support/images.ts';

const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

/**
 * Issue 34 item 4: a team post has a page of its own (/news/posts/:id) with the whole post rendered from
 * its Markdown (the server's sanitised HTML, images included); the news card shows a plain-text excerpt
 * and links to it.
 */
test('a team post is read in full on its own page; its card shows plain text and links there', async ({
  page,
  server,
  member,
}) => {
  const service = adminClient(server);
  expect((await service.from('user_roles').insert({ user_id: member.id, role: 'admin' })).error).toBeNull();
  const tag = randomBytes(4).toString('hex');
  const object = `admin-posts/${tag}.png`;
  const upload = await service.storage
    .from('community-review-media')
    .upload(object, pngBytes(48, 32), { contentType: 'image/png' });
  expect(upload.error).toBeNull();
  const imageUrl = service.storage.from('community-review-media').getPublicUrl(object).data.publicUrl;
  const title = `Growers letter ${tag}`;
  const paragraphs = Array.from(
    { length: 12 },
    (_, index) => `Paragraph ${index + 1} of the letter: the greenhouse, the harvest and the market.`,
  );
  const content = [
    '## Hello, growers',
    'Every **scam report** is read by a [moderator](https://example.com/moderation).',
    `![The greenhouse](${imageUrl})`,
    ...paragraphs,
    `The last line of the letter ${tag}.`,
  ].join('\n\n');
  const session = await sessionOf(server, member);
  const saved = await fetch(`${server.url}/functions/v1/admin-post-save`, {
    method: 'POST',
    headers: {
      apikey: server.anonKey,
      authorization: `Bearer ${session.access_token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ title, content, status: 'published' }),
  });
  expect(saved.status).toBe(201);
  const post = (await saved.json()) as { id: string };

  try {
    await page.goto(`/news?q=${tag}`);
    const card = page.getByTestId('news-card').filter({ hasText: title });
    await expect(card).toBeVisible();
    // The excerpt is plain text: no Markdown marks, the link's text without its address.
    await expect(card).toContainText('Hello, growers Every scam report is read by a moderator.');
    await expect(card).not.toContainText('##');
    await expect(card).not.toContainText('**');
    await expect(card).not.toContainText('](');
    await card.getByRole('link', { name: title }).click();
    await expect(page).toHaveURL(new RegExp(`/news/posts/${post.id}$`));

    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(`^${title} — News`));
    const body = page.getByTestId('post-body');
    await expect(body.getByRole('heading', { level: 2, name: 'Hello, growers' })).toBeVisible();
    await expect(body.locator('strong', { hasText: 'scam report' })).toBeVisible();
    await expect(body.getByRole('link', { name: 'moderator' })).toHaveAttribute(
      'href',
      'https://example.com/moderation',
    );
    const image = body.getByRole('img', { name: 'The greenhouse' });
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(48);
    // The whole post, not three lines of it.
    await expect(body.getByText(`The last line of the letter ${tag}.`)).toBeVisible();
    await expect(body.getByText('Paragraph 12 of the letter', { exact: false })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // A shared link works on its own (the server sends the app for the path).
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();

    await page.goto('/news/posts/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { name: 'Post not found' })).toBeVisible();
  } finally {
    await service.from('admin_posts').delete().eq('id', post.id);
    await service.storage.from('community-review-media').remove([object]);
  }
});
