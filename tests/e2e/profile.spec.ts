import type { Page } from '@playwright/test';
import { expect as baseExpect, expectNoSeriousA11yViolations, test, toastWith } from './fixtures.ts';

// These pages make several requests and the tests run axe-core many times: on a loaded 2-core machine a
// page can take well over the default 10 s to show its data, and a test over a minute to finish.
const expect = baseExpect.configure({ timeout: 20_000 });
test.slow();

import {
  adminClient,
  createMember,
  deleteMember,
  type Member,
  openSignedIn,
  type ServerInfo,
} from './support/api.ts';
import { pngBytes } from './support/images.ts';

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
/** A count of the summary card (product §profile). */
const count = (page: Page, label: string) => page.locator(`dt:text-is("${label}") + dd`);

async function seedActivity(server: ServerInfo, member: Member) {
  const admin = adminClient(server);
  // Votes and comments name real Pass or Gas products.
  const products = await admin.from('products').upsert([
    { id: 'blue-dream-1g', name: 'Blue Dream 1g', category: 'Flower' },
    { id: 'og-kush-3g', name: 'OG Kush 3g', category: 'Flower' },
  ]);
  expect(products.error).toBeNull();
  const votes = await admin.from('product_votes').insert([
    { user_id: member.id, product_id: 'blue-dream-1g', vote_type: 'gas', created_at: '2026-03-01T10:00:00Z' },
    { user_id: member.id, product_id: 'og-kush-3g', vote_type: 'pass', created_at: '2026-03-02T10:00:00Z' },
  ]);
  expect(votes.error).toBeNull();
  const comments = await admin.from('product_comments').insert([
    {
      user_id: member.id,
      product_id: 'blue-dream-1g',
      content: 'Smooth and sweet.',
      created_at: '2026-03-03T10:00:00Z',
    },
  ]);
  expect(comments.error).toBeNull();
  const saved = await admin.from('saved_articles').insert([
    {
      user_id: member.id,
      article_title: 'Colorado sales hit a record',
      article_summary: 'Dispensaries sold more than ever in March.',
      article_image: 'https://images.example.com/colorado.jpg',
      article_source: 'Leafly',
      article_category: 'Markets',
      article_url: 'https://news.example.com/colorado-record',
      saved_at: '2026-03-04T10:00:00Z',
    },
    {
      user_id: member.id,
      article_title: 'New testing rules in Oregon',
      article_url: 'https://news.example.com/oregon-testing',
      saved_at: '2026-03-05T10:00:00Z',
    },
  ]);
  expect(saved.error).toBeNull();
}

test('a visitor is asked to sign in', async ({ page }) => {
  await page.goto('/profile');
  await expect(page.getByText('Please sign in to view your profile.')).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth$/);
});

test('a new member sees the summary card, empty tabs, and tabs follow ?tab=', async ({
  page,
  server,
  member,
}) => {
  await openSignedIn(page, server, member, '/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Profile Settings' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: 'Back to Home' })).toHaveAttribute(
    'href',
    '/',
  );

  // The sign-up trigger made the profile: username from the email, name from the metadata.
  const username = member.email.split('@')[0]?.replace(/[^a-z0-9_]/g, '_');
  await expect(page.getByRole('heading', { name: `@${username}` })).toBeVisible();
  await expect(page.getByText('Test Member', { exact: true })).toBeVisible();
  for (const label of ['Total Votes', 'Comments', 'Saved Articles']) {
    await expect(count(page, label)).toHaveText('0');
  }
  await expect(page.getByText(/^Member since \w+ \d{1,2}, \d{4}$/)).toBeVisible();
  // In the summary card and in the profile picture card.
  await expect(page.getByRole('img', { name: `Initials of @${username}` })).toHaveText(['TM', 'TM']);

  await expect(tab(page, 'Settings')).toHaveAttribute('aria-selected', 'true');
  await expectNoSeriousA11yViolations(page);

  await tab(page, 'Saved').click();
  await expect(page).toHaveURL(/\/profile\?tab=saved$/);
  await expect(page.getByText('Saved Articles (0)')).toBeVisible();
  await expect(
    page.getByText('No saved articles yet. Click the heart icon on any news article to save it!'),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await tab(page, 'Votes').click();
  await expect(page).toHaveURL(/\?tab=votes$/);
  await expect(
    page.getByText('No votes yet. Start voting on products to see your history here!'),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await tab(page, 'Comments').click();
  await expect(page).toHaveURL(/\?tab=comments$/);
  await expect(
    page.getByText('No comments yet. Start commenting on products to see them here!'),
  ).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto('/profile?tab=privacy');
  await expect(tab(page, 'Privacy')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('button', { name: 'Save Settings' })).toBeVisible();
  await expectNoSeriousA11yViolations(page);

  await page.goto('/profile?tab=nonsense');
  await expect(tab(page, 'Settings')).toHaveAttribute('aria-selected', 'true');
});

test('votes, comments and saved articles are listed with the counts', async ({ page, server, member }) => {
  await seedActivity(server, member);
  // The saved article's picture, from a host that exists only here.
  await page.route('https://images.example.com/**', (route) =>
    route.fulfill({ contentType: 'image/png', body: pngBytes() }),
  );
  await openSignedIn(page, server, member, '/profile?tab=votes');
  await expect(count(page, 'Total Votes')).toHaveText('2');
  await expect(count(page, 'Comments')).toHaveText('1');
  await expect(count(page, 'Saved Articles')).toHaveText('2');

  const votes = page.getByRole('tabpanel').getByRole('listitem');
  await expect(votes).toHaveCount(2);
  // Newest first, each product by its name and linking to its page, as the public profile shows them
  // (issue 34 item 6: the owner's tabs showed "Product og-kush-3g" without a link).
  await expect(votes.nth(0).getByRole('link', { name: 'OG Kush 3g', exact: true })).toHaveAttribute(
    'href',
    '/pass-or-gas/og-kush-3g',
  );
  await expect(votes.nth(0)).toContainText('March 2, 2026');
  await expect(votes.nth(0)).toContainText('👎 Pass');
  await expect(votes.nth(1).getByRole('link', { name: 'Blue Dream 1g', exact: true })).toHaveAttribute(
    'href',
    '/pass-or-gas/blue-dream-1g',
  );
  await expect(votes.nth(1)).toContainText('👍 Gas');
  await expect(page.getByRole('tabpanel')).not.toContainText('Product og-kush-3g');
  await expectNoSeriousA11yViolations(page);

  await tab(page, 'Comments').click();
  const comment = page.getByRole('tabpanel').getByRole('listitem');
  await expect(comment).toHaveCount(1);
  const commented = comment.getByRole('link', { name: 'Blue Dream 1g', exact: true });
  await expect(commented).toHaveAttribute('href', '/pass-or-gas/blue-dream-1g');
  await expect(comment).toContainText('March 3, 2026');
  await expect(comment).toContainText('Smooth and sweet.');
  await expectNoSeriousA11yViolations(page);

  await tab(page, 'Saved').click();
  await expect(page.getByText('Saved Articles (2)')).toBeVisible();
  const articles = page.getByRole('tabpanel').getByRole('listitem');
  await expect(articles).toHaveCount(2);
  const colorado = articles.filter({ hasText: 'Colorado sales hit a record' });
  await expect(colorado).toContainText('Dispensaries sold more than ever in March.');
  await expect(colorado).toContainText('Leafly');
  await expect(colorado).toContainText('Markets');
  await expect(colorado).toContainText('Saved March 4, 2026');
  await expect(colorado.locator('img')).toHaveAttribute('src', 'https://images.example.com/colorado.jpg');
  const open = colorado.getByRole('link', { name: 'Open Colorado sales hit a record in a new tab' });
  await expect(open).toHaveAttribute('href', 'https://news.example.com/colorado-record');
  await expect(open).toHaveAttribute('target', '_blank');
  await expectNoSeriousA11yViolations(page);

  await colorado.getByRole('button', { name: 'Remove Colorado sales hit a record' }).click();
  await expect(toastWith(page, 'Article Removed')).toBeVisible();
  await expect(page.getByText('Saved Articles (1)')).toBeVisible();
  await expect(count(page, 'Saved Articles')).toHaveText('1');
  const { data } = await adminClient(server)
    .from('saved_articles')
    .select('article_title')
    .eq('user_id', member.id);
  expect(data).toEqual([{ article_title: 'New testing rules in Oregon' }]);

  // An article that is already gone (removed in another tab) cannot be removed again.
  await adminClient(server).from('saved_articles').delete().eq('user_id', member.id);
  await page
    .getByRole('tabpanel')
    .getByRole('button', { name: 'Remove New testing rules in Oregon' })
    .click();
  await expect(toastWith(page, 'Failed to remove article. Please try again.')).toBeVisible();

  // The product's name leads to its page.
  await tab(page, 'Comments').click();
  await page.getByRole('tabpanel').getByRole('link', { name: 'Blue Dream 1g', exact: true }).click();
  await expect(page).toHaveURL(/\/pass-or-gas\/blue-dream-1g$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Blue Dream 1g', exact: true })).toBeVisible();
});

test('the profile form saves and stores empty fields as null', async ({ page, server, member }) => {
  await openSignedIn(page, server, member, '/profile');
  const username = page.getByLabel('Username');
  await expect(username).not.toHaveValue('');
  const mine = `grower_${Date.now().toString(36)}`;
  await username.fill(mine);
  await page.getByLabel('Display Name').fill('Mary Jane');
  await page.getByLabel('Bio').fill('Craft grower from Oregon.');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toastWith(page, 'Profile updated')).toBeVisible();
  await expect(page.getByRole('heading', { name: `@${mine}` })).toBeVisible();
  await expect(page.getByText('Mary Jane', { exact: true })).toBeVisible();
  await expect(page.getByText('Craft grower from Oregon.', { exact: true }).first()).toBeVisible();

  await page.getByLabel('Display Name').fill('');
  await page.getByLabel('Bio').fill('   ');
  await page.getByRole('button', { name: 'Save Changes' }).click();
  // Without a name, the summary shows the email.
  await expect(page.getByText(member.email, { exact: true })).toBeVisible();
  await expect(page.getByText('Craft grower from Oregon.', { exact: true })).toHaveCount(0);
  const { data } = await adminClient(server)
    .from('profiles')
    .select('username, full_name, bio')
    .eq('user_id', member.id)
    .single();
  expect(data).toEqual({ username: mine, full_name: null, bio: null });
  await expectNoSeriousA11yViolations(page);
});

test.describe('profile form failures', () => {
  test.use({ allowConsoleErrors: true });

  test('a taken username and an invalid one are refused with the spec text and the rule broken', async ({
    page,
    server,
    member,
  }) => {
    const other = await createMember(server);
    try {
      const taken = `taken_${Date.now().toString(36)}`;
      await adminClient(server).from('profiles').update({ username: taken }).eq('user_id', other.id);
      await openSignedIn(page, server, member, '/profile');
      await expect(page.getByLabel('Username')).not.toHaveValue('');

      await page.getByLabel('Username').fill(taken.toUpperCase());
      await page.getByRole('button', { name: 'Save Changes' }).click();
      const takenToast = toastWith(page, 'This username is already in use. Please choose another.');
      await expect(takenToast).toContainText('Username taken');

      // An invalid username is refused with the rule it broke, under the field, which gets the
      // keyboard; nothing is saved (issue 21, item 6).
      await page.getByLabel('Username').fill('Bob Smith!');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      const username = page.getByLabel('Username');
      await expect(username).toHaveAttribute('aria-invalid', 'true');
      await expect(username).toBeFocused();
      await expect(username).toHaveAccessibleDescription(
        /only letters, digits, underscores \(_\), dots \(\.\) and dashes \(-\)/,
      );
      await expect(toastWith(page, 'Failed to update profile. Please try again.')).toHaveCount(0);
      const { data } = await adminClient(server)
        .from('profiles')
        .select('username')
        .eq('user_id', member.id)
        .single();
      expect(data?.username).not.toBe('Bob Smith!');
      // Typing clears the problem.
      await username.fill('bob_smith');
      await expect(username).not.toHaveAttribute('aria-invalid', 'true');
    } finally {
      await deleteMember(server, other);
    }
  });
});
