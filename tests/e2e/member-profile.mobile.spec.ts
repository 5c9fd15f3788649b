import { expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import { deleteMember } from './support/api.ts';
import { profileSubject, setPrivacy } from './support/member-profile.ts';

const FIRST_LOAD = { timeout: 30_000 };

test('a public member profile on a phone: one column, nothing wider than the screen, axe-clean', async ({
  page,
  server,
}) => {
  test.slow();
  const { member, username, productName, comment } = await profileSubject(server);
  try {
    // The member shows their activity (off by default, decision 193).
    await setPrivacy(server, member, {
      profile_visibility: 'public',
      show_email: false,
      show_activity: true,
    });
    await page.goto(`/u/${username}`);
    await expect(page.getByRole('heading', { level: 1, name: member.fullName, exact: true })).toBeVisible(
      FIRST_LOAD,
    );
    const comments = page.getByRole('list', { name: 'Recent comments', exact: true });
    await expect(comments.getByText(comment, { exact: true })).toBeVisible();
    await expect(
      page.getByRole('list', { name: 'Recent votes', exact: true }).getByRole('link', { name: productName }),
    ).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // The vote and comment cards stack: the comments start below the votes.
    const votesBox = await page.getByRole('list', { name: 'Recent votes', exact: true }).boundingBox();
    const commentsBox = await comments.boundingBox();
    expect(votesBox && commentsBox ? commentsBox.y > votesBox.y + votesBox.height : false).toBe(true);
    await expectNoSeriousA11yViolations(page);

    await setPrivacy(server, member, {
      profile_visibility: 'private',
      show_email: false,
      show_activity: true,
    });
    await page.reload();
    await expect(
      page.getByRole('heading', { level: 2, name: 'This profile is private', exact: true }),
    ).toBeVisible(FIRST_LOAD);
    await expectNoSeriousA11yViolations(page);
  } finally {
    await deleteMember(server, member);
  }
});
