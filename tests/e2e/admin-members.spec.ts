import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { expect as baseExpect, expectNoSeriousA11yViolations, test } from './fixtures.ts';
import {
  adminClient,
  createMember,
  deleteMember,
  type Member,
  openSignedIn,
  type ServerInfo,
  sessionOf,
} from './support/api.ts';

// The machine these run on is shared and often loaded: give the admin screens room, asserting no timing.
const expect = baseExpect.configure({ timeout: 30_000 });
test.describe.configure({ timeout: 180_000 });

/** Issue 15 "Members and roles": search, the member's page, the role and suspension, each confirmed. */

/** A supabase-js client signed in as the member (Node side, not the page). */
async function clientAs(server: ServerInfo, member: Member): Promise<SupabaseClient> {
  const session = await sessionOf(server, member);
  return createClient(server.url, server.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: WebSocket as never },
    global: { headers: { Authorization: `Bearer ${session.access_token}` } },
  });
}

test('an admin finds a member, makes them admin and back, suspends and restores them', async ({
  page,
  server,
  member,
}) => {
  test.slow();
  const granted = await adminClient(server).from('user_roles').insert({ user_id: member.id, role: 'admin' });
  expect(granted.error).toBeNull();
  const tag = `zq${Date.now().toString(36)}`;
  const target = await createMember(server, { email: `${tag}@members.example`, fullName: 'Robin Target' });
  try {
    await openSignedIn(page, server, member, '/admin/members');
    await expect(page.getByRole('heading', { level: 2, name: 'Members' })).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search members' }).fill(tag.toUpperCase());
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${tag.toUpperCase()}`));
    const rows = page.getByRole('table').getByRole('row');
    await expect(rows).toHaveCount(2); // the header and the one member
    await expect(rows.nth(1)).toContainText(`${tag}@members.example`);
    await expect(rows.nth(1)).toContainText('Member');
    await expectNoSeriousA11yViolations(page);

    await page.getByRole('link', { name: 'Robin Target' }).click();
    await expect(page.getByRole('heading', { level: 3, name: 'Robin Target' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    // Each action asks first; cancelling changes nothing.
    await page.getByRole('button', { name: 'Make admin' }).click();
    const ask = page.getByRole('alertdialog');
    await expect(ask).toContainText('Make Robin Target an admin?');
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect(ask).toHaveCount(0);
    await page.getByRole('button', { name: 'Make admin' }).click();
    await ask.getByRole('button', { name: 'Make admin' }).click();
    await expect(page.getByText('Admin role granted').first()).toBeVisible();
    const article = page.getByRole('article');
    await expect(article.getByText('Admin', { exact: true })).toBeVisible();
    // An admin's account is not suspended before their role goes.
    await expect(page.getByText('Revoke the admin role before suspending this account.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Suspend account' })).toBeDisabled();

    await page.getByRole('button', { name: 'Revoke admin role' }).click();
    await ask.getByRole('button', { name: 'Revoke admin role' }).click();
    await expect(page.getByText('Admin role revoked').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Make admin' })).toBeVisible();

    await page.getByRole('button', { name: 'Suspend account' }).click();
    await expect(ask).toContainText('cannot sign in until an admin restores the account');
    await ask.getByRole('button', { name: 'Suspend account' }).click();
    await expect(page.getByText('Account suspended').first()).toBeVisible();
    await expect(article.getByText('Suspended', { exact: true })).toBeVisible();
    await expect(sessionOf(server, target)).rejects.toThrow('User is banned');

    await page.getByRole('button', { name: 'Restore account' }).click();
    await ask.getByRole('button', { name: 'Restore account' }).click();
    await expect(page.getByText('Account restored').first()).toBeVisible();
    await expect(sessionOf(server, target)).resolves.toHaveProperty('access_token');

    // Back to the list, with the search kept; the audit log has the suspension.
    await page.getByRole('link', { name: 'All members' }).click();
    await expect(page.getByRole('searchbox', { name: 'Search members' })).toHaveValue(tag.toUpperCase());
    // (The audit log is read as an admin: the service key has no member, so the view shows it nothing.)
    const audit = await (await clientAs(server, member))
      .from('admin_audit_log')
      .select('action')
      .eq('target_id', target.id)
      .order('at', { ascending: true });
    expect(audit.data?.map((row) => row.action)).toEqual(['member.suspend', 'member.restore']);
  } finally {
    await deleteMember(server, target);
  }
});

test("an admin's own page says they cannot suspend themselves", async ({ page, server, member }) => {
  const granted = await adminClient(server).from('user_roles').insert({ user_id: member.id, role: 'admin' });
  expect(granted.error).toBeNull();
  await openSignedIn(page, server, member, `/admin/members/${member.id}`);
  await expect(page.getByRole('article').getByText('You', { exact: true })).toBeVisible();
  await expect(page.getByText('You cannot suspend your own account.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Suspend account' })).toHaveCount(0);
});

test.describe("a page past the list's end", () => {
  // Chromium logs the data API's answer for it, 416 (Range Not Satisfiable); nothing else may be logged.
  test.use({ allowConsoleErrors: true });

  test('says so and leads back to the first page', async ({ page, server, member, consoleErrors }) => {
    const granted = await adminClient(server)
      .from('user_roles')
      .insert({ user_id: member.id, role: 'admin' });
    expect(granted.error).toBeNull();
    // An old link, or a page count estimated high (decision 252): not "No members yet", not an error.
    await openSignedIn(page, server, member, '/admin/members?sort=name&page=9999');
    const past = page.getByRole('region', { name: 'No members on page 9999' });
    await expect(past).toContainText('The list ends before this page.');
    await expectNoSeriousA11yViolations(page);
    await past.getByRole('button', { name: 'Go to the first page' }).click();
    await expect(page).toHaveURL(/\/admin\/members\?sort=name$/);
    await expect(page.getByRole('navigation', { name: 'Pages of members' })).toContainText(
      / · page 1 of \d+/,
    );
    expect(consoleErrors.filter((error) => !error.includes('status of 416'))).toEqual([]);
  });
});

test('a member opening the members section is not authorised and the API shows them nothing', async ({
  page,
  server,
  member,
}) => {
  await openSignedIn(page, server, member, '/admin/members');
  await expect(page.getByRole('heading', { name: 'Not authorised' })).toBeVisible();
  const asMember = await clientAs(server, member);
  const list = await asMember.from('admin_members').select('id');
  expect(list.data).toEqual([]);
  const suspend = await asMember.rpc('admin_set_suspended', { member_id: member.id, suspend: true });
  expect(suspend.error?.message).toBe('Unauthorized');
});
