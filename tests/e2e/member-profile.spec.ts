import { expect as baseExpect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { adminClient, deleteMember, openSignedIn } from './support/api.ts';
import { profileSubject, setPrivacy } from './support/member-profile.ts';

// Several pages, each checked by axe-core, on a loaded 2-core machine.
const expect = baseExpect.configure({ timeout: 20_000 });
const FIRST_LOAD = { timeout: 30_000 };

test('a public profile with activity, then activity off, private, friends, as a visitor and as the member', async ({
  page,
  server,
}) => {
  test.slow();
  const subject = await profileSubject(server);
  const { member, username, productId, productName, comment } = subject;
  try {
    // The member shows their activity (off by default, decision 193).
    await setPrivacy(server, member, {
      profile_visibility: 'public',
      show_email: false,
      show_activity: true,
    });
    // A visitor, the username in another case: name, @username, member since, bio, recent vote and comment.
    await page.goto(`/u/${username.toUpperCase()}`);
    await expect(page.getByRole('heading', { level: 1, name: member.fullName, exact: true })).toBeVisible(
      FIRST_LOAD,
    );
    await expect(page).toHaveTitle(`${member.fullName} (@${username}) · HighGrade`);
    await expect(page.getByText(`@${username}`, { exact: true })).toBeVisible();
    await expect(page.getByText(/^Member since \w+ \d{1,2}, \d{4}$/)).toBeVisible();
    await expect(page.getByText('Small-batch grower in Oakland.', { exact: true })).toBeVisible();
    await expect(page.getByRole('img', { name: `Initials of @${username}`, exact: true })).toBeVisible();
    const votes = page.getByRole('list', { name: 'Recent votes', exact: true });
    await expect(votes.getByRole('listitem')).toHaveCount(1);
    await expect(votes.getByRole('link', { name: productName, exact: true })).toBeVisible();
    await expect(votes.getByText('👍 Gas', { exact: true })).toBeVisible();
    const comments = page.getByRole('list', { name: 'Recent comments', exact: true });
    await expect(comments.getByText(comment, { exact: true })).toBeVisible();
    // The email is hidden by default (show_email off).
    await expect(page.getByText(member.email)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // On the product page the comment is signed with the author's name, linking to the profile.
    await page.goto(`/pass-or-gas/${productId}`);
    const author = page.getByRole('link', { name: `${member.fullName} (@${username})`, exact: true });
    await expect(author).toBeVisible(FIRST_LOAD);
    await author.click();
    await expect(page).toHaveURL(new RegExp(`/u/${username}$`));
    await expect(page.getByRole('heading', { level: 1, name: member.fullName, exact: true })).toBeVisible();

    // Activity off, email on: no votes or comments on the profile, the email shown, the comment unsigned.
    await setPrivacy(server, member, {
      profile_visibility: 'public',
      show_email: true,
      show_activity: false,
    });
    await page.reload();
    await expect(
      page.getByText(`@${username} keeps their votes and comments private.`, { exact: true }),
    ).toBeVisible(FIRST_LOAD);
    await expect(page.getByRole('link', { name: member.email, exact: true })).toHaveAttribute(
      'href',
      `mailto:${member.email}`,
    );
    await expect(page.getByRole('list', { name: 'Recent votes', exact: true })).toHaveCount(0);
    await expect(page.getByText(comment)).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.goto(`/pass-or-gas/${productId}`);
    const thread = page.getByTestId('comment').filter({ hasText: comment });
    await expect(thread).toBeVisible(FIRST_LOAD);
    await expect(thread.getByText('A member', { exact: true })).toBeVisible();
    await expect(
      thread.getByRole('link', { name: `${member.fullName} (@${username})`, exact: true }),
    ).toHaveCount(0);

    // Private: the page says so and shows nothing else.
    await setPrivacy(server, member, {
      profile_visibility: 'private',
      show_email: true,
      show_activity: true,
    });
    await page.goto(`/u/${username}`);
    await expect(
      page.getByRole('heading', { level: 2, name: 'This profile is private', exact: true }),
    ).toBeVisible(FIRST_LOAD);
    await expect(page.getByRole('heading', { level: 1, name: `@${username}`, exact: true })).toBeVisible();
    await expect(page).toHaveTitle('Private profile · HighGrade');
    await expect(page.getByText(member.email)).toHaveCount(0);
    await expect(page.getByText('Small-batch grower in Oakland.')).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);

    // Friends: to a visitor the same as private (there are no connections yet).
    await setPrivacy(server, member, {
      profile_visibility: 'friends',
      show_email: false,
      show_activity: true,
    });
    await page.reload();
    await expect(
      page.getByRole('heading', { level: 2, name: 'This profile is private', exact: true }),
    ).toBeVisible(FIRST_LOAD);

    // The member themself sees their page, told honestly who else can.
    await openSignedIn(page, server, member, `/u/${username}`);
    await expect(page.getByRole('heading', { level: 1, name: member.fullName, exact: true })).toBeVisible(
      FIRST_LOAD,
    );
    await expect(page.getByTestId('own-profile-notice')).toHaveText(
      /Your profile is set to Friends\. Connections do not exist yet, so for now only you can see this page\./,
    );
    await expect(comments.getByText(comment, { exact: true })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await page.getByRole('link', { name: 'Privacy settings', exact: true }).click();
    await expect(page).toHaveURL(/\/profile\?tab=privacy$/);
    await expect(page.getByRole('radio', { name: 'Friends', exact: true })).toBeChecked(FIRST_LOAD);
    await expect(
      page.getByText('Connections are not available yet, so for now only you can see it.', { exact: true }),
    ).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Friends', exact: true })).toHaveAccessibleDescription(
      'Only your connections can see your profile. Connections are not available yet, so for now only you can see it.',
    );
    await expectNoSeriousA11yViolations(page);

    // The profile page links to the public profile.
    await page.getByRole('tab', { name: 'Settings', exact: true }).click();
    await page.getByRole('link', { name: 'View public profile', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/u/${username}$`));
    await expect(page.getByTestId('own-profile-notice')).toBeVisible(FIRST_LOAD);
  } finally {
    await deleteMember(server, member);
  }
});

test('an unknown, malformed, suspended or deleted member is "Member not found"', async ({ page, server }) => {
  test.slow();
  await page.goto('/u/nobody_has_this_name_at_all');
  await expect(page.getByRole('heading', { level: 1, name: 'Member not found', exact: true })).toBeVisible(
    FIRST_LOAD,
  );
  await expect(
    page.getByText('No member has the username @nobody_has_this_name_at_all.', { exact: true }),
  ).toBeVisible();
  await expect(page).toHaveTitle('Member not found · HighGrade');
  await expectNoSeriousA11yViolations(page);

  await page.goto(`/u/${encodeURIComponent('Bob Smith!<script>')}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Member not found', exact: true })).toBeVisible(
    FIRST_LOAD,
  );

  const { member, username } = await profileSubject(server);
  try {
    const banned = await adminClient(server).auth.admin.updateUserById(member.id, { ban_duration: '24h' });
    expect(banned.error).toBeNull();
    await page.goto(`/u/${username}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Member not found', exact: true })).toBeVisible(
      FIRST_LOAD,
    );
  } finally {
    await deleteMember(server, member);
  }
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Member not found', exact: true })).toBeVisible(
    FIRST_LOAD,
  );
});

test('a profile whose username has dots, dashes and digits opens from a shared link and on reload', async ({
  page,
  server,
}) => {
  // Issue 34 item 3 (decision 170): the server took /u/nina.grows for a missing file.
  const { member } = await profileSubject(server);
  try {
    for (const username of [`nina.grows.${member.id.slice(0, 6)}`, `pat-42.js${member.id.slice(0, 4)}`]) {
      const saved = await adminClient(server).from('profiles').update({ username }).eq('user_id', member.id);
      expect(saved.error).toBeNull();
      await page.goto(`/u/${username}`);
      const heading = page.getByRole('heading', { level: 1, name: member.fullName, exact: true });
      await expect(heading).toBeVisible(FIRST_LOAD);
      await expect(page.getByText(`@${username}`, { exact: true })).toBeVisible();
      await page.reload();
      await expect(heading).toBeVisible(FIRST_LOAD);
    }
  } finally {
    await deleteMember(server, member);
  }
});
